export { startService, runService, openServiceDatabase } from './run-service.ts';
export { schemaDrift } from './schema-drift.ts';
export type { Feature, FeatureDeps, ServiceDefinition, RunningService } from './run-service.ts';
