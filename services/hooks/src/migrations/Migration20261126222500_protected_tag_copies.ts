import { Migration } from '@platform/db';

/** Protected tags as their events last described them, for the `ref_protected` of tag push payloads. */
export class Migration20261126222500_protected_tag_copies extends Migration {
  override name = 'Migration20261126222500_protected_tag_copies';

  override up(): void {
    this.addSql(`create table protected_tag_copies (
      id bigint primary key,
      project_id bigint not null,
      name text not null
    )`);
    this.addSql('create index protected_tag_copies_project_idx on protected_tag_copies (project_id)');
  }
}
