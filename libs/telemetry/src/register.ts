/**
 * Preloaded with `node --import @platform/telemetry/register`, before the application's own
 * modules, so that the instrumented libraries are patched when they load.
 */
import { register } from 'node:module';
import { startTelemetry } from './start-telemetry.ts';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
const telemetry = startTelemetry({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'platform' });
process.once('beforeExit', () => void telemetry.shutdown());
