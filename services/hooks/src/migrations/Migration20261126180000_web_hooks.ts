import { Migration } from '@platform/db';

/** Project, group and system hooks, and their deliveries (GitLab's web hook logs). */
export class Migration20261126180000_web_hooks extends Migration {
  override name = 'Migration20261126180000_web_hooks';

  override up(): void {
    this.addSql(`create table web_hooks (
      id bigserial primary key,
      type text not null check (type in ('ProjectHook', 'GroupHook', 'SystemHook')),
      project_id bigint,
      group_id bigint,
      url text not null,
      name text not null default '',
      description text not null default '',
      token text,
      triggers jsonb not null,
      push_events_branch_filter text not null default '',
      branch_filter_strategy text not null default 'wildcard' check (branch_filter_strategy in ('wildcard', 'regex', 'all_branches')),
      enable_ssl_verification boolean not null default true,
      url_variables jsonb not null default '{}',
      custom_headers jsonb not null default '{}',
      recent_failures integer not null default 0,
      disabled_until timestamptz,
      created_at timestamptz not null,
      check ((type = 'ProjectHook') = (project_id is not null)),
      check ((type = 'GroupHook') = (group_id is not null))
    )`);
    this.addSql('create index web_hooks_project_idx on web_hooks (project_id, id) where project_id is not null');
    this.addSql('create index web_hooks_group_idx on web_hooks (group_id, id) where group_id is not null');
    this.addSql(`create index web_hooks_system_idx on web_hooks (id) where type = 'SystemHook'`);
    this.addSql(`create table web_hook_logs (
      id bigserial primary key,
      web_hook_id bigint not null references web_hooks (id) on delete cascade,
      trigger text not null,
      event_uuid uuid not null,
      idempotency_key uuid not null,
      url text not null,
      request_headers jsonb not null,
      request_data jsonb not null,
      response_headers jsonb not null default '{}',
      response_body text not null default '',
      response_status text not null default '',
      internal_error_message text,
      execution_duration double precision not null default 0,
      state text not null check (state in ('pending', 'delivered')),
      created_at timestamptz not null
    )`);
    // A hook's deliveries newest first (the events list), and its pending ones oldest first (delivery order).
    this.addSql('create index web_hook_logs_hook_idx on web_hook_logs (web_hook_id, id)');
    this.addSql(`create index web_hook_logs_pending_idx on web_hook_logs (web_hook_id, id) where state = 'pending'`);
  }
}
