import { Migration } from '@platform/db';

export class Migration20261126190000_protected_tags extends Migration {
  override name = 'Migration20261126190000_protected_tags';

  override up(): void {
    this.addSql(`create table protected_tags (
      id bigserial primary key,
      project_id bigint not null,
      name text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (project_id, name)
    )`);
    this.addSql(`create table protected_tag_create_access_levels (
      id bigserial primary key,
      protected_tag_id bigint not null references protected_tags (id) on delete cascade,
      access_level integer not null check (access_level in (0, 30, 40))
    )`);
    this.addSql('create index protected_tag_create_access_levels_tag on protected_tag_create_access_levels (protected_tag_id)');
  }
}
