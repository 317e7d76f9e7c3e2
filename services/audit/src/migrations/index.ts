import type { MigrationObject } from '@platform/db';
import { Migration20261122000200_audit_events } from './Migration20261122000200_audit_events.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000200_audit_events', class: Migration20261122000200_audit_events },
];
