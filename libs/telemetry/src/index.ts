export { startTelemetry, tracingWanted } from './start-telemetry.ts';
export type { Telemetry } from './start-telemetry.ts';
