import { Migration } from '@platform/db';

export class Migration20261122190000_repositories extends Migration {
  override name = 'Migration20261122190000_repositories';

  override up(): void {
    this.addSql(`create table repositories (
      project_id bigint primary key,
      storage text not null,
      disk_path text not null,
      read_only boolean not null default false,
      created_at timestamptz not null,
      pushed_at timestamptz
    )`);
  }
}
