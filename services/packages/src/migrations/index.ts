import type { MigrationObject } from '@platform/db';
import { Migration20261122210000_packages } from './Migration20261122210000_packages.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [{ name: 'Migration20261122210000_packages', class: Migration20261122210000_packages }];
