import { Migration } from '@platform/db';

/** Protected branches as their events last described them, for the `ref_protected` of push payloads. */
export class Migration20261126214500_protected_branch_copies extends Migration {
  override name = 'Migration20261126214500_protected_branch_copies';

  override up(): void {
    this.addSql(`create table protected_branch_copies (
      id bigint primary key,
      project_id bigint not null,
      name text not null
    )`);
    this.addSql('create index protected_branch_copies_project_idx on protected_branch_copies (project_id)');
  }
}
