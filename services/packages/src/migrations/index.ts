import type { MigrationObject } from '@platform/db';
import { Migration20261122210000_packages } from './Migration20261122210000_packages.ts';
import { Migration20261124163000_container_registry } from './Migration20261124163000_container_registry.ts';
import { Migration20261124202200_container_registry_background_jobs } from './Migration20261124202200_container_registry_background_jobs.ts';
import { Migration20261126173000_scoped_npm_file_names } from './Migration20261126173000_scoped_npm_file_names.ts';
import { Migration20261126220300_generic_packages } from './Migration20261126220300_generic_packages.ts';
import { Migration20261127003000_package_file_duplicates } from './Migration20261127003000_package_file_duplicates.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261122210000_packages', class: Migration20261122210000_packages },
  { name: 'Migration20261124163000_container_registry', class: Migration20261124163000_container_registry },
  { name: 'Migration20261124202200_container_registry_background_jobs', class: Migration20261124202200_container_registry_background_jobs },
  { name: 'Migration20261126173000_scoped_npm_file_names', class: Migration20261126173000_scoped_npm_file_names },
  { name: 'Migration20261126220300_generic_packages', class: Migration20261126220300_generic_packages },
  { name: 'Migration20261127003000_package_file_duplicates', class: Migration20261127003000_package_file_duplicates },
];
