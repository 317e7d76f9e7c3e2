import type { MigrationObject } from '@platform/db';
import { Migration20261122180000_event_tables } from './Migration20261122180000_event_tables.ts';

/**
 * Migrations of the tables this library owns, applied by the service runtime after the
 * service's own. Like a service's, a landed one is never edited, only followed by a new one;
 * the `events.` prefix keeps their names apart from the service's in the migrations table.
 */
export const eventMigrations: MigrationObject[] = [
  { name: 'events.Migration20261122180000_event_tables', class: Migration20261122180000_event_tables },
];
