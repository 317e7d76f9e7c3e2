import { Migration } from '@platform/db';

export class Migration20261124163000_container_registry extends Migration {
  override name = 'Migration20261124163000_container_registry';

  override up(): void {
    // A project's image repositories, made when a push is first authorised (as GitLab makes them).
    this.addSql(`create table container_repositories (
      id bigserial primary key,
      project_id bigint not null,
      project_path text not null,
      namespace_ids jsonb not null,
      name text not null,
      -- The registry's name for it: the project path, then the name when it has one.
      path text not null constraint container_repositories_path_unique unique,
      status text check (status in ('delete_scheduled')),
      cleanup_requested_at timestamptz,
      created_at timestamptz not null
    )`);
    this.addSql('create index container_repositories_project_idx on container_repositories (project_id, id)');
    this.addSql('create index container_repositories_namespace_ids_idx on container_repositories using gin (namespace_ids jsonb_path_ops)');
    // Tags as the registry's notifications report them, with what their manifest and config say.
    this.addSql(`create table container_tags (
      id bigserial primary key,
      repository_id bigint not null references container_repositories (id) on delete cascade,
      name text not null,
      digest text not null,
      revision text,
      total_size bigint,
      image_created_at timestamptz,
      pushed_at timestamptz not null,
      unique (repository_id, name)
    )`);
    this.addSql('create index container_tags_digest_idx on container_tags (repository_id, digest)');
    // Bulk tag deletions and repository deletions, run in the background; a job survives restarts.
    this.addSql(`create table container_registry_jobs (
      id bigserial primary key,
      kind text not null check (kind in ('cleanup_tags', 'delete_repository')),
      repository_id bigint not null,
      params jsonb not null,
      actor jsonb,
      state text not null default 'pending' check (state in ('pending', 'running', 'done', 'failed')),
      attempts integer not null default 0,
      locked_until timestamptz,
      last_error text,
      created_at timestamptz not null
    )`);
    this.addSql("create index container_registry_jobs_pending_idx on container_registry_jobs (id) where state in ('pending', 'running')");
  }
}
