import { describe, expect, it } from '@jest/globals';
import { cpuMs, threadCpuMs } from './process-cpu.ts';

/** Spins until this thread has used `ms` more CPU time, as the kernel's rusage counts it. */
function burn(ms: number): void {
  const start = process.threadCpuUsage();
  while (process.threadCpuUsage(start).user + process.threadCpuUsage(start).system < ms * 1000);
}

describe('cpuMs', () => {
  // The main thread alone: the process's other threads (the garbage collector's, jest's) run
  // meanwhile and would add their time to a whole-process reading.
  it('reads CPU time finer than a 10 ms clock tick', () => {
    const deltas = [0, 1, 2].map(() => {
      const before = threadCpuMs(process.pid, process.pid);
      burn(3);
      return threadCpuMs(process.pid, process.pid) - before;
    });
    // Whole ticks would read 0 or 10 ms for each 3 ms spin.
    for (const delta of deltas) {
      expect(delta).toBeGreaterThan(2);
      expect(delta).toBeLessThan(8);
    }
  });

  it('sums the threads of a process', () => {
    const before = cpuMs(process.pid);
    burn(3);
    expect(cpuMs(process.pid) - before).toBeGreaterThan(2);
  });

  it('reads 0 for a process that is gone', () => {
    expect(cpuMs(2 ** 22 + 1)).toBe(0);
    expect(threadCpuMs(2 ** 22 + 1, 2 ** 22 + 1)).toBe(0);
  });
});
