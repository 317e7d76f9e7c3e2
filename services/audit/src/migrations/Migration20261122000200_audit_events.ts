import { Migration } from '@platform/db';
import { eventTablesSql } from '@platform/events/database';

export class Migration20261122000200_audit_events extends Migration {
  override name = 'Migration20261122000200_audit_events';

  override up(): void {
    this.addSql(`create table audit_events (
      id bigserial primary key,
      author_id integer not null,
      entity_id integer not null,
      entity_type text not null check (entity_type in ('User', 'Group', 'Project')),
      event_name text not null,
      details jsonb not null,
      source_event_id uuid not null unique,
      created_at timestamptz not null
    )`);
    this.addSql('create index audit_events_created_at_idx on audit_events (created_at, id)');
    this.addSql('create index audit_events_entity_idx on audit_events (entity_type, entity_id, created_at)');
    for (const sql of eventTablesSql) this.addSql(sql);
  }
}
