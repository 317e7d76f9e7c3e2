import type { MigrationObject } from '@platform/db';
import { Migration20261124133000_delivery } from './Migration20261124133000_delivery.ts';
import { Migration20261124202000_feature_flag_revisions } from './Migration20261124202000_feature_flag_revisions.ts';
import { Migration20261126212300_pipelines_and_commit_statuses } from './Migration20261126212300_pipelines_and_commit_statuses.ts';

/** Applied in this order; a landed migration is never edited, only followed by a new one. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261124133000_delivery', class: Migration20261124133000_delivery },
  { name: 'Migration20261124202000_feature_flag_revisions', class: Migration20261124202000_feature_flag_revisions },
  { name: 'Migration20261126212300_pipelines_and_commit_statuses', class: Migration20261126212300_pipelines_and_commit_statuses },
];
