import { Migration } from '@platform/db';

export class Migration20261126210700_issue_links_and_label_subscriptions extends Migration {
  override name = 'Migration20261126210700_issue_links_and_label_subscriptions';

  override up(): void {
    // `is_blocked_by` is stored as the other issue's `blocks`, as GitLab stores it.
    this.addSql(`create table issue_links (
      id bigserial primary key,
      source_issue_id bigint not null references issues (id) on delete cascade,
      target_issue_id bigint not null references issues (id) on delete cascade,
      link_type text not null check (link_type in ('relates_to', 'blocks')),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (source_issue_id, target_issue_id),
      check (source_issue_id <> target_issue_id)
    )`);
    this.addSql('create index issue_links_target on issue_links (target_issue_id)');
    this.addSql(`create table issue_user_agent_details (
      issue_id bigint primary key references issues (id) on delete cascade,
      user_agent text not null,
      ip_address text not null,
      submitted boolean not null default false,
      created_at timestamptz not null
    )`);
    // A label id names a project or a group label (they share a sequence).
    this.addSql(`create table label_subscriptions (
      label_id bigint not null,
      user_id bigint not null,
      created_at timestamptz not null,
      primary key (label_id, user_id)
    )`);
  }
}
