import { inUnitOfWork, type Orm } from '@platform/db';
import type { Logger } from '@platform/logger';
import type { ActivityEventStore } from './activity-events-store.ts';

/** How long events are kept, as GitLab keeps them. */
export const RETENTION_YEARS = 2;

/** The oldest creation time an event may have at `now` and still be kept. */
export function retentionCutoff(now: Date): Date {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - RETENTION_YEARS);
  return cutoff;
}

/**
 * Removes events older than the retention period: once at start, then every `intervalMs`.
 * Every replica runs it; a deletion repeated by another is a no-op.
 */
export class ActivityRetention {
  readonly #orm: Orm;
  readonly #store: ActivityEventStore;
  readonly #logger: Logger;
  readonly #intervalMs: number;
  readonly #now: () => Date;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();

  constructor(options: { orm: Orm; store: ActivityEventStore; logger: Logger; intervalMs: number; now?: () => Date }) {
    this.#orm = options.orm;
    this.#store = options.store;
    this.#logger = options.logger.child({ component: 'activity-retention' });
    this.#intervalMs = options.intervalMs;
    this.#now = options.now ?? (() => new Date());
  }

  /** Removes what is past retention now; answers how many events went. */
  async removeExpired(): Promise<number> {
    const cutoff = retentionCutoff(this.#now());
    const removed = await inUnitOfWork(this.#orm, () => this.#store.removeCreatedBefore(cutoff));
    if (removed > 0) this.#logger.info({ removed, cutoff }, 'removed activity events past retention');
    return removed;
  }

  start(): void {
    const run = () => {
      // A failed run (the database away for a moment) is logged; the next one tries again.
      this.#running = this.removeExpired().catch((error: unknown) => this.#logger.error({ err: error }, 'activity retention failed'));
    };
    run();
    this.#timer = setInterval(run, this.#intervalMs);
    this.#timer.unref();
  }

  /** Stops the schedule and waits for a run under way, before the database closes. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}
