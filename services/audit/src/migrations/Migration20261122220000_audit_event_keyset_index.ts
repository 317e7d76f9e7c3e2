import { Migration } from '@platform/db';

/** Keyset pages of one group's or project's audit events read in id order straight from an index. */
export class Migration20261122220000_audit_event_keyset_index extends Migration {
  override name = 'Migration20261122220000_audit_event_keyset_index';

  override up(): void {
    this.addSql('create index audit_events_entity_id_idx on audit_events (entity_type, entity_id, id)');
  }
}
