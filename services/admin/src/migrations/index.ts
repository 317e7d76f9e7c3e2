import type { MigrationObject } from '@platform/db';
import { Migration20261124133000_application_settings } from './Migration20261124133000_application_settings.ts';
import { Migration20261124140000_ci_variables } from './Migration20261124140000_ci_variables.ts';
import { Migration20261126215700_scoped_ci_variables } from './Migration20261126215700_scoped_ci_variables.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261124133000_application_settings', class: Migration20261124133000_application_settings },
  { name: 'Migration20261124140000_ci_variables', class: Migration20261124140000_ci_variables },
  { name: 'Migration20261126215700_scoped_ci_variables', class: Migration20261126215700_scoped_ci_variables },
];
