export { BackgroundJob } from './background-job.entity.ts';
export type { JobState } from './background-job.entity.ts';
export { defineJob, enqueueJob, handleJob, DEFAULT_MAX_ATTEMPTS } from './job-definitions.ts';
export type { JobContext, JobDefinition, JobHandler, Schedule } from './job-definitions.ts';
export { createJobRunner } from './job-runner.ts';
export type { JobRunner, JobRunnerOptions } from './job-runner.ts';
export { jobMigrations } from './migrations/index.ts';
