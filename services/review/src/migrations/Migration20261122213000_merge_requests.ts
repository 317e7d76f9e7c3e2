import { Migration } from '@platform/db';

export class Migration20261122213000_merge_requests extends Migration {
  override name = 'Migration20261122213000_merge_requests';

  override up(): void {
    this.addSql(`create table merge_requests (
      id bigserial primary key,
      project_id bigint not null,
      iid integer not null,
      source_project_id bigint not null,
      target_namespace_ids bigint[] not null default '{}',
      source_branch text not null,
      target_branch text not null,
      title text not null,
      draft boolean not null default false,
      description text not null default '',
      state text not null check (state in ('opened', 'closed', 'locked', 'merged')),
      author_id bigint not null,
      assignee_ids bigint[] not null default '{}',
      reviewer_ids bigint[] not null default '{}',
      labels text[] not null default '{}',
      milestone_id bigint,
      squash boolean not null default false,
      force_remove_source_branch boolean not null default false,
      allow_collaboration boolean not null default false,
      discussion_locked boolean,
      merge_status text not null default 'unchecked',
      head_sha text,
      merge_commit_sha text,
      squash_commit_sha text,
      merged_by_id bigint,
      merged_at timestamptz,
      closed_by_id bigint,
      closed_at timestamptz,
      time_estimate integer not null default 0,
      total_time_spent integer not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (project_id, iid)
    )`);
    this.addSql('create index merge_requests_project_created on merge_requests (project_id, created_at)');
    this.addSql("create index merge_requests_project_source on merge_requests (source_project_id, source_branch) where state = 'opened'");
    this.addSql("create index merge_requests_project_target on merge_requests (project_id, target_branch) where state = 'opened'");
    this.addSql('create index merge_requests_author on merge_requests (author_id, created_at)');
    this.addSql('create index merge_requests_namespaces on merge_requests using gin (target_namespace_ids)');
    this.addSql('create index merge_requests_assignees on merge_requests using gin (assignee_ids)');
    this.addSql(`create table merge_request_diffs (
      id bigserial primary key,
      merge_request_id bigint not null references merge_requests (id) on delete cascade,
      base_commit_sha text not null,
      start_commit_sha text not null,
      head_commit_sha text not null,
      files_count integer not null,
      created_at timestamptz not null
    )`);
    this.addSql('create index merge_request_diffs_merge_request on merge_request_diffs (merge_request_id, id)');
  }
}
