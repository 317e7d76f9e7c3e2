import type { MigrationObject } from '@platform/db';
import { Migration20261124140000_alerts } from './Migration20261124140000_alerts.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [{ name: 'Migration20261124140000_alerts', class: Migration20261124140000_alerts }];
