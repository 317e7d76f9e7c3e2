import { spawnSupervised, type SupervisedProcess } from './supervised-process.ts';

export interface RestartingProcess {
  /** The pid of the current run. */
  pid(): number;
  /** True when the current run has exited and no restart is coming (before `supervise`, or after `stop`). */
  isDead(): boolean;
  lastOutput(): string;
  /** How many times it was restarted. */
  restarts(): number;
  /** From now on a run that ends is restarted; until then (during start-up) an exit is final. */
  supervise(): void;
  /** Stops the current run and every restart. */
  stop(graceMs?: number): Promise<void>;
}

export interface RestartPolicy {
  /** Delay before the first restart; doubled after each crash up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A run that lasted this long counts as healthy: the next crash starts from `initialDelayMs` again. */
  stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = { initialDelayMs: 250, maxDelayMs: 10_000, stableAfterMs: 30_000 };

/**
 * A child process restarted whenever it exits on its own (a crash, `kill -9`, a consumer that
 * gave up), after a delay that doubles with each consecutive crash up to a cap, and reported
 * through `onRestart` so the console says what happened.
 */
export function spawnRestarting(
  options: Parameters<typeof spawnSupervised>[0] & { name: string; policy?: RestartPolicy; onRestart?: (message: string) => void },
): RestartingProcess {
  const policy = options.policy ?? DEFAULT_RESTART_POLICY;
  let supervised = false;
  let stopped = false;
  let restarts = 0;
  let delay = policy.initialDelayMs;
  let timer: NodeJS.Timeout | undefined;
  let current: SupervisedProcess;

  const run = () => {
    const startedAt = Date.now();
    current = spawnSupervised({
      ...options,
      onExit: (exit) => {
        options.onExit?.(exit);
        if (!supervised || stopped) return;
        if (Date.now() - startedAt >= policy.stableAfterMs) delay = policy.initialDelayMs;
        const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
        options.onRestart?.(`${options.name} exited (${how}); restarting in ${delay} ms`);
        timer = setTimeout(() => {
          restarts += 1;
          run();
        }, delay);
        delay = Math.min(policy.maxDelayMs, delay * 2);
      },
    });
  };
  run();

  return {
    pid: () => current.pid,
    isDead: () => current.isDead() && (!supervised || stopped),
    lastOutput: () => current.lastOutput(),
    restarts: () => restarts,
    supervise: () => {
      supervised = true;
    },
    async stop(graceMs) {
      stopped = true;
      clearTimeout(timer);
      await current.stop(graceMs);
    },
  };
}
