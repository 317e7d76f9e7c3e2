import type { MigrationObject } from '@platform/db';
import { Migration20261124133000_delivery } from './Migration20261124133000_delivery.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [{ name: 'Migration20261124133000_delivery', class: Migration20261124133000_delivery }];
