import { Migration } from '@platform/db';

export class Migration20261124180000_labels_and_milestones extends Migration {
  override name = 'Migration20261124180000_labels_and_milestones';

  override up(): void {
    this.addSql(`create table labels (
      id bigserial primary key,
      project_id bigint not null,
      title text not null,
      color text not null,
      description text,
      priority integer,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (project_id, title)
    )`);
    this.addSql(`create table milestones (
      id bigserial primary key,
      project_id bigint not null,
      iid integer not null,
      title text not null,
      description text,
      state text not null check (state in ('active', 'closed')),
      start_date date,
      due_date date,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (project_id, iid),
      unique (project_id, title)
    )`);
    this.addSql('create index merge_requests_labels on merge_requests using gin (labels)');
    this.addSql('create index merge_requests_milestone on merge_requests (milestone_id) where milestone_id is not null');
  }
}
