/**
 * Gives memory back once a process that grew under load goes quiet.
 *
 * A burst of requests leaves a Node process at its largest: V8 keeps the pages a collection frees
 * in a pool for reuse, resident, and the young generation at its largest. V8's memory reducer
 * would release them when the process goes idle, but it judges idleness by the allocation rate
 * measured at the last collection, which stays high in a process that stopped allocating, so in a
 * server that went quiet it never runs (`node --trace-memory-reducer`: "high alloc" every 8 s).
 * This does what the reducer would: when the resident size is `growthBytes` above what it was
 * after the last release and the process used at most `idleCpuMs` of CPU per interval on average
 * over the last `quietIntervals` intervals, one full collection that reduces memory (V8's "last resort":
 * compaction, the young generation shrunk, pooled pages released). Under steady load it never
 * runs, nor in a pause of a few seconds between bursts, which would otherwise start on a cold heap
 * and a young generation at its smallest; its cost is one collection per change from busy to idle
 * after the process grew (docs/read-path.md).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

export interface IdleMemoryReleaseOptions {
  /** How often idleness and growth are checked. */
  intervalMs?: number;
  /** CPU (all threads) at most used per interval, on average over `quietIntervals`, for the process to count as idle. */
  idleCpuMs?: number;
  /**
   * How many intervals the average is taken over: a pause shorter than this between bursts does not
   * collect, and a single busier interval (a timer's work, a late compilation) does not start the wait again.
   */
  quietIntervals?: number;
  /** Growth of the resident size since the last release that is worth a collection. */
  growthBytes?: number;
}

/** What the release reads and does: the process's own, or a test's. */
export interface MemoryProbe {
  /** CPU the process used so far, in milliseconds. */
  cpuMs(): number;
  residentBytes(): number;
  /** A full collection that gives memory back. */
  collect(): Promise<void>;
}

// A quiet service spends 5-15 ms of CPU a second on its own background work (polls, consumers,
// timers; 20-55 before kafkajs's timer loop was patched), and hundreds while serving: a tenth of a
// core tells them apart. Eight quiet seconds are longer than the pauses between the bench's phases
// (5 s) and a client's bursts.
const DEFAULTS: Required<IdleMemoryReleaseOptions> = {
  intervalMs: 1_000,
  idleCpuMs: 100,
  quietIntervals: 8,
  growthBytes: 16 * 2 ** 20,
};

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The decision, one `check()` per interval; true when it collected. */
export function createIdleMemoryRelease(probe: MemoryProbe, options: IdleMemoryReleaseOptions = {}): { check(): Promise<boolean> } {
  const { idleCpuMs, quietIntervals, growthBytes } = { ...DEFAULTS, ...options };
  let baseline: number | undefined;
  let lastCpuMs = probe.cpuMs();
  /** CPU used in each of the last `quietIntervals` intervals, oldest first. */
  const recentCpuMs: number[] = [];
  return {
    async check() {
      const cpuMs = probe.cpuMs();
      const used = cpuMs - lastCpuMs;
      lastCpuMs = cpuMs;
      const resident = probe.residentBytes();
      if (baseline === undefined || resident < baseline) baseline = resident;
      recentCpuMs.push(used);
      if (recentCpuMs.length > quietIntervals) recentCpuMs.shift();
      const quiet = recentCpuMs.length === quietIntervals && sum(recentCpuMs) <= idleCpuMs * quietIntervals;
      if (!quiet || resident < baseline + growthBytes) return false;
      recentCpuMs.length = 0;
      await probe.collect();
      baseline = probe.residentBytes();
      // The collection's own CPU is not the next interval's load.
      lastCpuMs = probe.cpuMs();
      return true;
    },
  };
}

type GarbageCollector = (options: { type: 'major'; execution: 'async'; flavor: 'last-resort' }) => Promise<void>;

/**
 * This process's probe. V8's collector is reached through its `gc` extension, which a context gets
 * when `--expose-gc` is set as it is created: a fresh context is made for it, so that no global
 * `gc` appears in the service's own.
 */
export function processMemoryProbe(): MemoryProbe {
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc') as GarbageCollector;
  return {
    cpuMs: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
    residentBytes: () => process.memoryUsage.rss(),
    collect: () => collect({ type: 'major', execution: 'async', flavor: 'last-resort' }),
  };
}

/** Checks every `intervalMs` until stopped; the timer does not keep the process alive. */
export function startIdleMemoryRelease(
  options: IdleMemoryReleaseOptions = {},
  probe: MemoryProbe = processMemoryProbe(),
): { stop(): void } {
  const release = createIdleMemoryRelease(probe, options);
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    void release.check().finally(() => (checking = false));
  }, options.intervalMs ?? DEFAULTS.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
