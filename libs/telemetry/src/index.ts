export { startTelemetry } from './start-telemetry.ts';
export { tracingWanted } from './tracing-wanted.ts';
export type { Telemetry } from './start-telemetry.ts';
