import { Migration } from '@platform/db';

export class Migration20261126210900_deploy_tokens extends Migration {
  override name = 'Migration20261126210900_deploy_tokens';

  override up(): void {
    this.addSql(`create table deploy_tokens (
      id serial primary key,
      name text not null,
      username text null,
      token_digest text not null unique,
      scopes text[] not null,
      expires_at timestamptz null,
      revoked boolean not null default false,
      project_id integer null references projects (id) on delete cascade,
      group_id integer null references namespaces (id) on delete cascade,
      created_at timestamptz not null default now(),
      constraint deploy_tokens_one_owner_check check ((project_id is null) <> (group_id is null))
    )`);
    this.addSql('create index deploy_tokens_project_id_idx on deploy_tokens (project_id, id) where project_id is not null');
    this.addSql('create index deploy_tokens_group_id_idx on deploy_tokens (group_id, id) where group_id is not null');
  }
}
