import { UnavailableError } from '@platform/errors';
import type { RepositoryStorageNames } from '@platform/review-client';

/** How long review's answer is reused: storages change only when review restarts with another configuration. */
const KEPT_MS = 10_000;

/**
 * The repository storages review is configured with, asked (with the client's deadline) at most
 * every few seconds; the configuration lives in review only.
 */
export class ConfiguredRepositoryStorages {
  readonly #source: RepositoryStorageNames;
  readonly #now: () => number;
  #known: { names: string[]; at: number } | undefined;

  constructor(options: { source: RepositoryStorageNames; now?: () => number }) {
    this.#source = options.source;
    this.#now = options.now ?? Date.now;
  }

  /** The storages' names; UnavailableError when review cannot say. */
  async names(): Promise<string[]> {
    const now = this.#now();
    if (this.#known && now - this.#known.at < KEPT_MS) return this.#known.names;
    try {
      this.#known = { names: await this.#source.list(), at: now };
      return this.#known.names;
    } catch (error) {
      throw new UnavailableError('the repository storages cannot be read right now', { cause: error });
    }
  }

  close(): void {
    this.#source.close();
  }
}
