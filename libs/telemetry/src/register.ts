/**
 * Preloaded with `node --import @platform/telemetry/register`, before the application's own
 * modules, so that the instrumented libraries are patched when they load. With no exporter
 * configured (OTEL_TRACES_EXPORTER unset or `none`) nothing would ever read a span, so nothing
 * is instrumented, requests pay nothing for tracing, and the SDK is not even loaded (it holds
 * about 60 MB resident per process).
 */
import { register } from 'node:module';
import { tracingWanted } from './tracing-wanted.ts';

if (tracingWanted(process.env)) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const { startTelemetry } = await import('./start-telemetry.ts');
  const telemetry = startTelemetry({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'platform' });
  process.once('beforeExit', () => void telemetry.shutdown());
}
