import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger } from 'pino';
import { trace } from '@opentelemetry/api';

/** Paths whose values never reach a log line: credentials in headers and bodies. */
const redactedPaths = [
  'req.headers["private-token"]',
  'req.headers.authorization',
  'req.headers["x-platform-caller"]',
  'req.headers["job-token"]',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.key',
];

const requestIds = new AsyncLocalStorage<string>();

/** Runs `work` so that every line logged during it, however deep, carries `requestId`. */
export function withRequestId<Result>(requestId: string, work: () => Result): Result {
  return requestIds.run(requestId, work);
}

export function createLogger(options: { name: string; level?: string; destination?: pino.DestinationStream }): Logger {
  const settings: pino.LoggerOptions = {
    name: options.name,
    level: options.level ?? 'info',
    redact: { paths: redactedPaths, censor: '[redacted]' },
    // Every line carries the request and the trace it belongs to, so logs, requests and traces can be joined.
    mixin() {
      const requestId = requestIds.getStore();
      const spanContext = trace.getActiveSpan()?.spanContext();
      return {
        ...(requestId ? { reqId: requestId } : {}),
        ...(spanContext ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : {}),
      };
    },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
