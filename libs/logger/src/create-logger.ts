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

export function createLogger(options: { name: string; level?: string }): Logger {
  return pino({
    name: options.name,
    level: options.level ?? 'info',
    redact: { paths: redactedPaths, censor: '[redacted]' },
    // Every line carries the trace it belongs to, so logs and traces can be joined.
    mixin() {
      const spanContext = trace.getActiveSpan()?.spanContext();
      return spanContext ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : {};
    },
  });
}
