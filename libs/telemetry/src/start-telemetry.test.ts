import { describe, expect, it } from '@jest/globals';
import { tracingWanted } from './start-telemetry.ts';

describe('tracingWanted', () => {
  it('is off unless an exporter is named', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'console,otlp' })).toBe(true);
  });

  it('honours OTEL_SDK_DISABLED', () => {
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });
});
