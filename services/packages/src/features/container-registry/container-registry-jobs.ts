/**
 * Runs the container registry's background jobs (bulk tag deletions, repository deletions): polls
 * the jobs table, claims one at a time with a lease, and retries a failed job a few times. A job
 * whose process died is claimed again once its lease ran out, so jobs survive restarts.
 */
import type { Logger } from '@platform/logger';
import type { ContainerRegistryService } from './container-registry-service.ts';
import type { PgContainerRegistryStore } from './container-registry-store.ts';

const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 5;

export class ContainerRegistryJobRunner {
  readonly #store: PgContainerRegistryStore;
  readonly #registry: ContainerRegistryService;
  readonly #logger: Logger;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(deps: { store: PgContainerRegistryStore; registry: ContainerRegistryService; logger: Logger; intervalMs: number }) {
    this.#store = deps.store;
    this.#registry = deps.registry;
    this.#logger = deps.logger;
    this.#intervalMs = deps.intervalMs;
  }

  start(): void {
    this.#schedule();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#drain()
        .catch((error: unknown) => this.#logger.warn({ err: error }, 'container registry jobs: polling failed'))
        .finally(() => this.#schedule());
    }, this.#intervalMs);
  }

  /** Runs jobs until none is waiting. */
  async #drain(): Promise<void> {
    while (!this.#stopped) {
      const job = await this.#store.claimJob(LEASE_MS);
      if (!job) return;
      try {
        await this.#registry.run(job);
        await this.#store.finishJob(job.id, { state: 'done' });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const state = job.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending';
        this.#logger.warn({ err: error, jobId: job.id, kind: job.kind, attempts: job.attempts }, 'container registry job failed');
        await this.#store.finishJob(job.id, { state, error: message });
      }
    }
  }
}
