import { execFileSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { tracingWanted } from './tracing-wanted.ts';

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

describe('the preload', () => {
  /** Live heap (MB, after a full collection) of a process that preloads the register module, or not. */
  function liveHeapMb(options: { preload: boolean; env?: Record<string, string> }): number {
    const output = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        ...(options.preload ? ['--import', new URL('./register.ts', import.meta.url).pathname] : []),
        '-e',
        'gc(); process.stdout.write(String(process.memoryUsage().heapUsed / 2 ** 20))',
      ],
      { env: { PATH: process.env.PATH, ...options.env }, encoding: 'utf8' },
    );
    return Number(output);
  }

  // The SDK and its instrumentations hold about 15 MB of heap (and 60 MB resident) once loaded.
  const SDK_MB = 10;

  it('does not load the SDK when no exporter is configured', () => {
    expect(liveHeapMb({ preload: true }) - liveHeapMb({ preload: false })).toBeLessThan(SDK_MB);
  });

  it('loads it when one is', () => {
    const env = { OTEL_TRACES_EXPORTER: 'console' };
    expect(liveHeapMb({ preload: true, env }) - liveHeapMb({ preload: false, env })).toBeGreaterThan(SDK_MB);
  });
});
