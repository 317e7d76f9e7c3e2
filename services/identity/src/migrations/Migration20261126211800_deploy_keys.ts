import { Migration } from '@platform/db';

export class Migration20261126211800_deploy_keys extends Migration {
  override name = 'Migration20261126211800_deploy_keys';

  override up(): void {
    this.addSql(`create table deploy_keys (
      id serial primary key,
      user_id integer null references users (id) on delete set null,
      title text not null,
      key text not null,
      fingerprint_md5 text not null,
      fingerprint_sha256 text not null unique,
      public boolean not null default false,
      expires_at timestamptz null,
      created_at timestamptz not null default now()
    )`);
    this.addSql(`create table deploy_keys_projects (
      id serial primary key,
      deploy_key_id integer not null references deploy_keys (id) on delete cascade,
      project_id integer not null references projects (id) on delete cascade,
      can_push boolean not null default false,
      created_at timestamptz not null default now(),
      constraint deploy_keys_projects_key_project_key unique (deploy_key_id, project_id)
    )`);
    this.addSql('create index deploy_keys_projects_project_id_idx on deploy_keys_projects (project_id, deploy_key_id)');
    this.addSql('create index deploy_keys_public_idx on deploy_keys (id) where public');
  }
}
