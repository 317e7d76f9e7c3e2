import { Migration } from '@platform/db';

/** GitLab's resource label events: who added or removed a label of a merge request or an issue, and when. */
export class Migration20261126214000_resource_label_events extends Migration {
  override name = 'Migration20261126214000_resource_label_events';

  override up(): void {
    this.addSql(`create table resource_label_events (
      id bigserial primary key,
      project_id bigint not null,
      resource_type text not null check (resource_type in ('MergeRequest', 'Issue')),
      resource_id bigint not null,
      merge_request_id bigint generated always as (case when resource_type = 'MergeRequest' then resource_id end) stored
        references merge_requests (id) on delete cascade,
      issue_id bigint generated always as (case when resource_type = 'Issue' then resource_id end) stored
        references issues (id) on delete cascade,
      user_id bigint not null,
      label_title text not null,
      action text not null check (action in ('add', 'remove')),
      created_at timestamptz not null
    )`);
    this.addSql('create index resource_label_events_resource_idx on resource_label_events (resource_type, resource_id, id)');
    this.addSql('create index resource_label_events_merge_request_idx on resource_label_events (merge_request_id)');
    this.addSql('create index resource_label_events_issue_idx on resource_label_events (issue_id)');
  }
}
