import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@platform/logger';
import type { RepositoryStore } from '../repositories/repositories-store.ts';
import type { RepositoryStorages } from '../repositories/repository-storages.ts';
import type { RepositoryStorageMove } from './repository-storage-move.entity.ts';
import type { StorageMoveStore } from './storage-moves-store.ts';
import { repositoryChecksum } from './repository-checksum.ts';

/**
 * Carries out scheduled storage moves, one at a time per instance. A move is claimed in the table
 * (SKIP LOCKED, with a claim that lapses), so moves survive a restart: whatever a dead worker
 * left `scheduled`, `started` or `replicated` is resumed once its claim lapsed. Each step can be
 * run again: the copy starts from scratch, the switch and the transitions are transactions.
 *
 * The repository is read-only from the moment the move is scheduled. The worker copies it to the
 * destination under the repository's lock (so no push that began before is still writing),
 * compares the two checksums, switches the project's storage and takes pushes again in one
 * transaction, then removes the original. A failure before the switch removes the copy and
 * leaves the original where it was, writable.
 */
export class StorageMoveWorker {
  readonly #moves: StorageMoveStore;
  readonly #repositories: RepositoryStore;
  readonly #storages: RepositoryStorages;
  readonly #logger: Logger;
  readonly #pollIntervalMs: number;
  readonly #claimMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(options: {
    moves: StorageMoveStore;
    repositories: RepositoryStore;
    storages: RepositoryStorages;
    logger: Logger;
    pollIntervalMs: number;
    claimMs: number;
  }) {
    this.#moves = options.moves;
    this.#repositories = options.repositories;
    this.#storages = options.storages;
    this.#logger = options.logger;
    this.#pollIntervalMs = options.pollIntervalMs;
    this.#claimMs = options.claimMs;
  }

  /** Polls for moves until stopped. */
  start(): void {
    const poll = () => {
      this.#running = this.#drain()
        .catch((error: unknown) => this.#logger.error({ err: error }, 'storage moves not processed'))
        .finally(() => {
          if (!this.#stopped) this.#timer = setTimeout(poll, this.#pollIntervalMs);
        });
    };
    this.#timer = setTimeout(poll, this.#pollIntervalMs);
  }

  /** Lets the move under way finish (its steps are short), then stops polling. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  async #drain(): Promise<void> {
    while (!this.#stopped && (await this.runOnce()));
  }

  /** Claims and carries out one move; false when none was waiting. */
  async runOnce(): Promise<boolean> {
    const claimed = await this.#moves.claimNext(this.#claimMs);
    if (!claimed) return false;
    const renewal = setInterval(() => {
      this.#moves
        .renewClaim(claimed.id, this.#claimMs)
        .catch((error: unknown) => this.#logger.warn({ err: error, moveId: claimed.id }, 'storage move claim not renewed'));
    }, this.#claimMs / 3);
    try {
      await this.#carryOut(claimed);
    } finally {
      clearInterval(renewal);
    }
    return true;
  }

  async #carryOut(claimed: RepositoryStorageMove): Promise<void> {
    let move = claimed;
    const logged = { moveId: move.id, projectId: move.projectId, from: move.sourceStorageName, to: move.destinationStorageName };
    const repository = await this.#repositories.find(move.projectId);
    if (!repository) {
      await this.#moves.fail(move, 'the repository no longer exists');
      this.#logger.warn(logged, 'storage move failed: the repository no longer exists');
      return;
    }
    const source = this.#storages.pathOf({ storage: move.sourceStorageName, diskPath: repository.diskPath });
    const destination = this.#storages.has(move.destinationStorageName)
      ? this.#storages.pathOf({ storage: move.destinationStorageName, diskPath: repository.diskPath })
      : undefined;
    if (move.state !== 'replicated') {
      if (move.state === 'scheduled') move = await this.#moves.transition(move, 'started');
      try {
        if (!destination) throw new Error(`unknown repository storage "${move.destinationStorageName}"`);
        await this.#repositories.withRepositoryLock(move.projectId, async () => {
          // The same storage (GitLab moves there when the weights choose it): nothing to copy.
          if (destination !== source) await replicate(source, destination);
          move = await this.#moves.switchStorage(move);
        });
      } catch (error) {
        if (destination && destination !== source) await rm(destination, { recursive: true, force: true }).catch(() => undefined);
        const reason = error instanceof Error ? error.message : String(error);
        await this.#moves.fail(move, reason);
        this.#logger.warn({ ...logged, reason }, 'storage move failed; the repository stays where it was');
        return;
      }
    }
    if (destination === source) {
      await this.#moves.transition(move, 'finished');
      return;
    }
    try {
      await rm(source, { recursive: true, force: true });
    } catch (error) {
      await this.#moves.transition(move, 'cleanup failed');
      this.#logger.warn({ ...logged, err: error }, 'storage move done, but the original repository was not removed');
      return;
    }
    await this.#moves.transition(move, 'finished');
    this.#logger.info(logged, 'repository moved');
  }
}

/** Copies a bare repository as it is on disk, then checks the copy holds the same refs and objects. */
async function replicate(source: string, destination: string): Promise<void> {
  // A copy left by an attempt that died half-way is started again.
  await rm(destination, { recursive: true, force: true });
  await mkdir(path.dirname(destination), { recursive: true });
  await cp(source, destination, { recursive: true, errorOnExist: true, force: false, preserveTimestamps: true });
  const [expected, copied] = await Promise.all([repositoryChecksum(source), repositoryChecksum(destination)]);
  if (expected !== copied) throw new Error(`the copy's checksum ${copied} differs from the original's ${expected}`);
}
