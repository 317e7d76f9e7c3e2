import { Migration } from '@platform/db';

export class Migration20261126212300_pipelines_and_commit_statuses extends Migration {
  override name = 'Migration20261126212300_pipelines_and_commit_statuses';

  override up(): void {
    // External pipelines: the statuses an external CI posts for one sha and ref, numbered per project.
    this.addSql(`create table pipelines (
      id bigserial primary key,
      project_id bigint not null,
      iid integer not null,
      sha text not null,
      ref text not null,
      tag boolean not null,
      before_sha text not null,
      source text not null,
      status text not null check (status in ('created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped')),
      user_id integer not null,
      user_username text not null,
      user_name text not null,
      coverage text null,
      version integer not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      started_at timestamptz null,
      finished_at timestamptz null,
      unique (project_id, iid)
    )`);
    // The list's filters and orders, each after the project.
    this.addSql(`create index pipelines_project_id_idx on pipelines (project_id, id)`);
    this.addSql(`create index pipelines_project_sha_idx on pipelines (project_id, sha, id)`);
    this.addSql(`create index pipelines_project_ref_idx on pipelines (project_id, ref, id)`);
    this.addSql(`create index pipelines_project_status_idx on pipelines (project_id, status, id)`);
    this.addSql(`create index pipelines_project_updated_at_idx on pipelines (project_id, updated_at, id)`);
    this.addSql(`create index pipelines_project_user_idx on pipelines (project_id, user_id, id)`);
    this.addSql(`create table pipeline_iids (
      project_id bigint primary key,
      last_iid integer not null
    )`);
    this.addSql(`create table commit_statuses (
      id bigserial primary key,
      project_id bigint not null,
      pipeline_id bigint not null references pipelines (id) on delete cascade,
      sha text not null,
      ref text not null,
      name text not null,
      stage text not null,
      status text not null check (status in ('created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped')),
      description text null,
      target_url text null,
      coverage double precision null,
      allow_failure boolean not null,
      retried boolean not null,
      user_id integer not null,
      user_username text not null,
      user_name text not null,
      created_at timestamptz not null,
      started_at timestamptz null,
      finished_at timestamptz null
    )`);
    this.addSql(`create index commit_statuses_project_sha_idx on commit_statuses (project_id, sha, id)`);
    this.addSql(`create index commit_statuses_pipeline_idx on commit_statuses (pipeline_id, name, id)`);
  }
}
