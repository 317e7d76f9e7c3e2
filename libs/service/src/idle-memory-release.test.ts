import { createIdleMemoryRelease, processMemoryProbe, type MemoryProbe } from './idle-memory-release.ts';

const MB = 2 ** 20;

/** A process whose CPU and resident size the test sets; a collection brings it to `afterCollect`. */
function fakeProcess(start: { residentMb: number }) {
  const state = { cpuMs: 0, residentMb: start.residentMb, afterCollectMb: start.residentMb, collections: 0 };
  const probe: MemoryProbe = {
    cpuMs: () => state.cpuMs,
    residentBytes: () => state.residentMb * MB,
    collect: async () => {
      state.collections += 1;
      state.residentMb = state.afterCollectMb;
    },
  };
  return { state, probe };
}

describe('idle memory release', () => {
  const options = { idleCpuMs: 20, quietIntervals: 1, growthBytes: 16 * MB };

  it('collects once a process that grew goes idle, and measures growth from what the collection left', async () => {
    const { state, probe } = fakeProcess({ residentMb: 140 });
    const release = createIdleMemoryRelease(probe, options);
    await release.check();
    state.residentMb = 210;
    state.afterCollectMb = 150;
    expect(await release.check()).toBe(true);
    expect(state.collections).toBe(1);
    // 160 is 10 MB above what the collection left: not worth another.
    state.residentMb = 160;
    expect(await release.check()).toBe(false);
    state.residentMb = 170;
    expect(await release.check()).toBe(true);
    expect(state.collections).toBe(2);
  });

  it('never collects while the process is busy, however much it grew', async () => {
    const { state, probe } = fakeProcess({ residentMb: 140 });
    const release = createIdleMemoryRelease(probe, options);
    await release.check();
    for (let second = 0; second < 5; second++) {
      state.cpuMs += 500;
      state.residentMb += 20;
      expect(await release.check()).toBe(false);
    }
    expect(state.collections).toBe(0);
    // The first quiet interval after the load.
    state.cpuMs += 5;
    expect(await release.check()).toBe(true);
  });

  it('does not collect an idle process that did not grow', async () => {
    const { state, probe } = fakeProcess({ residentMb: 140 });
    const release = createIdleMemoryRelease(probe, options);
    await release.check();
    state.residentMb = 155;
    expect(await release.check()).toBe(false);
    expect(state.collections).toBe(0);
  });

  it("does not count the collection's own CPU as the next interval's load", async () => {
    const { state, probe } = fakeProcess({ residentMb: 140 });
    probe.collect = async () => {
      state.collections += 1;
      state.cpuMs += 300;
      state.residentMb = 140;
    };
    const release = createIdleMemoryRelease(probe, options);
    await release.check();
    state.residentMb = 200;
    expect(await release.check()).toBe(true);
    state.residentMb = 200;
    expect(await release.check()).toBe(true);
  });

  it('by default counts a process doing 50 ms of background work a second as quiet, and 200 as busy', async () => {
    const { state, probe } = fakeProcess({ residentMb: 140 });
    const release = createIdleMemoryRelease(probe, { quietIntervals: 1 });
    await release.check();
    state.residentMb = 200;
    state.cpuMs += 200;
    expect(await release.check()).toBe(false);
    state.cpuMs += 50;
    expect(await release.check()).toBe(true);
  });

  it('by default waits for eight quiet intervals, so a pause between bursts keeps the heap warm', async () => {
    const { state, probe } = fakeProcess({ residentMb: 140 });
    const release = createIdleMemoryRelease(probe);
    await release.check();
    state.residentMb = 200;
    const quietFor = async (intervals: number) => {
      const results: boolean[] = [];
      for (let interval = 0; interval < intervals; interval++) {
        state.cpuMs += 10;
        results.push(await release.check());
      }
      return results;
    };
    // A 5 s pause, then another burst: no collection.
    expect(await quietFor(5)).toEqual([false, false, false, false, false]);
    state.cpuMs += 900;
    expect(await release.check()).toBe(false);
    // Quiet from then on: the burst's interval weighs on the average until eight quiet ones follow it.
    expect(await quietFor(8)).toEqual([false, false, false, false, false, false, false, true]);
    expect(state.collections).toBe(1);
  });

  it('does not start the wait again for one busier interval among quiet ones', async () => {
    const { state, probe } = fakeProcess({ residentMb: 140 });
    const release = createIdleMemoryRelease(probe);
    await release.check();
    state.residentMb = 200;
    // The first check's interval and these seven: eight, one of them busier.
    const results: boolean[] = [];
    for (const used of [10, 250, 10, 10, 10, 10, 10]) {
      state.cpuMs += used;
      results.push(await release.check());
    }
    expect(results).toEqual([false, false, false, false, false, false, true]);
  });

  it("reaches this process's collector", async () => {
    const probe = processMemoryProbe();
    const cpuBefore = probe.cpuMs();
    await expect(probe.collect()).resolves.toBeUndefined();
    expect(probe.cpuMs()).toBeGreaterThan(cpuBefore);
    expect(probe.residentBytes()).toBeGreaterThan(0);
    expect('gc' in globalThis).toBe(false);
  });
});
