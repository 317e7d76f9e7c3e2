import type { MigrationObject } from '@platform/db';
import { Migration20261122000200_audit_events } from './Migration20261122000200_audit_events.ts';
import { Migration20261122220000_audit_event_keyset_index } from './Migration20261122220000_audit_event_keyset_index.ts';
import { Migration20261124140000_activity_events } from './Migration20261124140000_activity_events.ts';
import { Migration20261124170500_activity_event_notes } from './Migration20261124170500_activity_event_notes.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000200_audit_events', class: Migration20261122000200_audit_events },
  { name: 'Migration20261122220000_audit_event_keyset_index', class: Migration20261122220000_audit_event_keyset_index },
  { name: 'Migration20261124140000_activity_events', class: Migration20261124140000_activity_events },
  { name: 'Migration20261124170500_activity_event_notes', class: Migration20261124170500_activity_event_notes },
];
