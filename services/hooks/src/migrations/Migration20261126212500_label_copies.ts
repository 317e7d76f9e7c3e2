import { Migration } from '@platform/db';

/** Project and group labels as their events last described them, for the labels of merge request and issue payloads. */
export class Migration20261126212500_label_copies extends Migration {
  override name = 'Migration20261126212500_label_copies';

  override up(): void {
    this.addSql(`create table label_copies (
      type text not null check (type in ('ProjectLabel', 'GroupLabel')),
      id bigint not null,
      project_id bigint,
      group_id bigint,
      title text not null,
      color text not null,
      description text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (type, id)
    )`);
    this.addSql('create index label_copies_project_idx on label_copies (project_id, title) where project_id is not null');
    this.addSql('create index label_copies_group_idx on label_copies (group_id, title) where group_id is not null');
  }
}
