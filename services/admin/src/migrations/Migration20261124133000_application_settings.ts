import { Migration } from '@platform/db';

export class Migration20261124133000_application_settings extends Migration {
  override name = 'Migration20261124133000_application_settings';

  override up(): void {
    // One record for the instance, as GitLab keeps it; it exists from the start.
    this.addSql(`create table application_settings (
      id integer primary key check (id = 1),
      settings jsonb not null default '{}',
      revision bigint not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`insert into application_settings (id, settings, revision, created_at, updated_at) values (1, '{}', 0, now(), now())`);
  }
}
