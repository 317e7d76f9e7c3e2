import { Migration } from '@platform/db';

export class Migration20261124180500_issues extends Migration {
  override name = 'Migration20261124180500_issues';

  override up(): void {
    this.addSql(`create table issues (
      id bigserial primary key,
      project_id bigint not null,
      iid integer not null,
      title text not null,
      description text not null default '',
      state text not null check (state in ('opened', 'closed')),
      author_id bigint not null,
      assignee_ids bigint[] not null default '{}',
      labels text[] not null default '{}',
      milestone_id bigint,
      confidential boolean not null default false,
      discussion_locked boolean,
      due_date date,
      closed_by_id bigint,
      closed_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (project_id, iid)
    )`);
    this.addSql('create index issues_project_created on issues (project_id, created_at)');
    this.addSql('create index issues_project_updated on issues (project_id, updated_at)');
    this.addSql('create index issues_author_created on issues (author_id, created_at)');
    this.addSql('create index issues_labels on issues using gin (labels)');
    this.addSql('create index issues_assignees on issues using gin (assignee_ids)');
    this.addSql('create index issues_milestone on issues (milestone_id) where milestone_id is not null');
  }
}
