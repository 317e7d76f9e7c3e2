import type { MigrationObject } from '@platform/db';
import { Migration20261122000100_users_and_tokens } from './Migration20261122000100_users_and_tokens.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122000100_users_and_tokens', class: Migration20261122000100_users_and_tokens },
];
