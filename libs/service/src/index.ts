export { startService, runService, openServiceDatabase } from './run-service.ts';
export { schemaDrift } from './schema-drift.ts';
export type { Feature, FeatureDeps, ServiceDefinition, RunningService } from './run-service.ts';
export { BackgroundJob, createJobRunner, defineJob, enqueueJob, handleJob, jobMigrations } from './jobs/index.ts';
export type { JobContext, JobDefinition, JobHandler, JobRunner, JobRunnerOptions, JobState, Schedule } from './jobs/index.ts';
