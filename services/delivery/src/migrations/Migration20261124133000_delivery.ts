import { Migration } from '@platform/db';

export class Migration20261124133000_delivery extends Migration {
  override name = 'Migration20261124133000_delivery';

  override up(): void {
    this.addSql(`create table environments (
      id bigserial primary key,
      project_id bigint not null,
      name text not null,
      slug text not null,
      external_url text,
      tier text not null check (tier in ('production', 'staging', 'testing', 'development', 'other')),
      state text not null default 'available' check (state in ('available', 'stopping', 'stopped')),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index environments_project_name_idx on environments (project_id, name)');
    this.addSql('create unique index environments_project_slug_idx on environments (project_id, slug)');
    this.addSql('create index environments_project_id_idx on environments (project_id, id)');

    // The last iid handed out per project: deployments count from 1 in each project.
    this.addSql(`create table deployment_iids (
      project_id bigint primary key,
      last_iid integer not null
    )`);
    this.addSql(`create table deployments (
      id bigserial primary key,
      project_id bigint not null,
      iid integer not null,
      environment_id bigint not null references environments (id) on delete cascade,
      ref text not null,
      sha text not null,
      tag boolean not null,
      status text not null check (status in ('created', 'running', 'success', 'failed', 'canceled')),
      user_id integer,
      user_username text,
      user_name text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      finished_at timestamptz
    )`);
    this.addSql('create unique index deployments_project_iid_idx on deployments (project_id, iid)');
    this.addSql('create index deployments_project_id_idx on deployments (project_id, id)');
    this.addSql('create index deployments_project_created_idx on deployments (project_id, created_at, id)');
    this.addSql('create index deployments_project_updated_idx on deployments (project_id, updated_at, id)');
    this.addSql('create index deployments_project_ref_idx on deployments (project_id, ref, id)');
    this.addSql('create index deployments_environment_idx on deployments (environment_id, id)');

    this.addSql(`create table feature_flag_user_lists (
      id bigserial primary key,
      project_id bigint not null,
      iid integer not null,
      name text not null,
      user_xids text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index feature_flag_user_lists_project_iid_idx on feature_flag_user_lists (project_id, iid)');
    this.addSql('create unique index feature_flag_user_lists_project_name_idx on feature_flag_user_lists (project_id, name)');

    this.addSql(`create table feature_flags (
      id bigserial primary key,
      project_id bigint not null,
      name text not null,
      description text,
      active boolean not null,
      version text not null check (version in ('new_version_flag', 'legacy_flag')),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index feature_flags_project_name_idx on feature_flags (project_id, name)');
    this.addSql('create index feature_flags_project_id_idx on feature_flags (project_id, id)');
    this.addSql(`create table feature_flag_strategies (
      id bigserial primary key,
      feature_flag_id bigint not null references feature_flags (id) on delete cascade,
      name text not null check (name in ('default', 'gradualRolloutUserId', 'userWithId', 'flexibleRollout', 'svcUserList')),
      parameters jsonb not null,
      user_list_id bigint references feature_flag_user_lists (id)
    )`);
    this.addSql('create index feature_flag_strategies_flag_idx on feature_flag_strategies (feature_flag_id, id)');
    this.addSql('create index feature_flag_strategies_user_list_idx on feature_flag_strategies (user_list_id)');
    this.addSql(`create table feature_flag_scopes (
      id bigserial primary key,
      strategy_id bigint not null references feature_flag_strategies (id) on delete cascade,
      environment_scope text not null
    )`);
    this.addSql('create unique index feature_flag_scopes_strategy_scope_idx on feature_flag_scopes (strategy_id, environment_scope)');
    // Legacy flags: one row per environment scope, with the strategies it applies there.
    this.addSql(`create table feature_flag_legacy_scopes (
      id bigserial primary key,
      feature_flag_id bigint not null references feature_flags (id) on delete cascade,
      environment_scope text not null,
      active boolean not null,
      strategies jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(
      'create unique index feature_flag_legacy_scopes_flag_scope_idx on feature_flag_legacy_scopes (feature_flag_id, environment_scope)',
    );

    // A project's Unleash instance id, which authenticates its applications' SDKs.
    this.addSql(`create table feature_flags_clients (
      project_id bigint primary key,
      token text not null unique,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
  }
}
