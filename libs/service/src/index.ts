export { startService, runService } from './run-service.ts';
export type { Feature, FeatureDeps, ServiceDefinition, RunningService } from './run-service.ts';
