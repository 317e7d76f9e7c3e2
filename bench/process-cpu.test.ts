import { describe, expect, it } from '@jest/globals';
import { cpuMs } from './process-cpu.ts';

/** Spins until this process has used `ms` more CPU time, as the kernel's rusage counts it. */
function burn(ms: number): void {
  const start = process.cpuUsage();
  while (process.cpuUsage(start).user + process.cpuUsage(start).system < ms * 1000);
}

describe('cpuMs', () => {
  it('reads CPU time finer than a 10 ms clock tick', () => {
    const deltas = [0, 1, 2].map(() => {
      const before = cpuMs(process.pid);
      burn(3);
      return cpuMs(process.pid) - before;
    });
    // Whole ticks would read 0 or 10 ms for each 3 ms spin.
    for (const delta of deltas) {
      expect(delta).toBeGreaterThan(2);
      expect(delta).toBeLessThan(8);
    }
  });

  it('reads 0 for a process that is gone', () => {
    expect(cpuMs(2 ** 22 + 1)).toBe(0);
  });
});
