import type { MigrationObject } from '@platform/db';
import { Migration20261122190000_repositories } from './Migration20261122190000_repositories.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122190000_repositories', class: Migration20261122190000_repositories },
];
