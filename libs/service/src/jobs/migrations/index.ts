import type { MigrationObject } from '@platform/db';
import { Migration20261124201500_background_jobs } from './Migration20261124201500_background_jobs.ts';

/**
 * Migrations of the job queue, applied by the service runtime before the service's own, so that
 * a service's migration may enqueue jobs. A landed one is never edited, only followed by a new
 * one; the `jobs.` prefix keeps their names apart from the service's in the migrations table.
 */
export const jobMigrations: MigrationObject[] = [
  { name: 'jobs.Migration20261124201500_background_jobs', class: Migration20261124201500_background_jobs },
];
