export { testEnvironment, createTestDatabase, dropDatabases, TEST_INTERNAL_SECRET } from './test-environment.ts';
export type { TestDatabase } from './test-environment.ts';
export { callerHeader, adminCaller, userCaller } from './callers.ts';
export { waitFor } from './wait-for.ts';
export { gitlabSchemaErrors } from './gitlab-schema.ts';
export { startServiceHarness } from './service-harness.ts';
export type { ServiceHarness, StartedService, OutboxEnvelope } from './service-harness.ts';
export { publishEvents } from './publish-event.ts';
export { featureImportCycle, featureImports, findImportCycle, moduleImportCycle } from './feature-dependencies.ts';
