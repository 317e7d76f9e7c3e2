import { Migration } from '@platform/db';

/** Activity events, and the users they are listed by and for. */
export class Migration20261124140000_activity_events extends Migration {
  override name = 'Migration20261124140000_activity_events';

  override up(): void {
    this.addSql(`create table activity_events (
      id bigserial primary key,
      project_id integer,
      author_id integer not null,
      author_username text not null,
      author_name text not null,
      action text not null check (action in ('created', 'updated', 'closed', 'reopened', 'pushed', 'commented', 'merged', 'joined', 'left', 'destroyed', 'expired', 'approved')),
      target_type text,
      target_id integer,
      target_iid integer,
      target_title text,
      push_data jsonb,
      source_event_id uuid not null unique,
      created_at timestamptz not null
    )`);
    // A user's events, a project's events, and every event by age (scope=all, retention).
    this.addSql('create index activity_events_author_idx on activity_events (author_id, created_at, id)');
    this.addSql('create index activity_events_project_idx on activity_events (project_id, created_at, id)');
    this.addSql('create index activity_events_created_at_idx on activity_events (created_at, id)');
    this.addSql(`create table activity_users (
      id integer primary key,
      username text not null,
      name text not null,
      state text not null,
      private_profile boolean not null
    )`);
    this.addSql('create index activity_users_username_idx on activity_users (lower(username))');
  }
}
