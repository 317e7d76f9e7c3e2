import { cp, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@platform/db';
import type { Logger } from '@platform/logger';
import type { RepositoryStore } from '../repositories/repositories-store.ts';
import type { RepositoryStorages } from '../repositories/repository-storages.ts';
import type { RepositoryStorageMove } from './repository-storage-move.entity.ts';
import { PENDING_STATES, type StorageMoveStore } from './storage-moves-store.ts';
import { repositoryChecksum } from './repository-checksum.ts';

/**
 * Carries out a scheduled storage move, as the job `storageMoveJob` that scheduling it queued. The
 * job queue holds the claim and its lease, so moves survive a restart: a move a dead runner left
 * `scheduled`, `started` or `replicated` is resumed once its lease ran out. Each step can be run
 * again: the copy starts from scratch, the switch and the transitions are transactions.
 *
 * The repository is read-only from the moment the move is scheduled. The worker copies it to the
 * destination under the repository's lock (so no push that began before is still writing),
 * compares the two checksums, switches the project's storage and takes pushes again in one
 * transaction, then removes the original. A failure before the switch removes the copy and
 * leaves the original where it was, writable.
 */
export class StorageMoveWorker {
  readonly #em: EntityManager;
  readonly #moves: StorageMoveStore;
  readonly #repositories: RepositoryStore;
  readonly #storages: RepositoryStorages;
  readonly #logger: Logger;

  constructor(options: {
    em: EntityManager;
    moves: StorageMoveStore;
    repositories: RepositoryStore;
    storages: RepositoryStorages;
    logger: Logger;
  }) {
    this.#em = options.em;
    this.#moves = options.moves;
    this.#repositories = options.repositories;
    this.#storages = options.storages;
    this.#logger = options.logger;
  }

  /** Carries out the move, or what is left of it; a move already over is left as it is. */
  async carryOut(moveId: number): Promise<void> {
    const move = await this.#moves.find(moveId);
    if (move && PENDING_STATES.includes(move.state)) await this.#carryOut(move);
  }

  async #carryOut(claimed: RepositoryStorageMove): Promise<void> {
    let move = claimed;
    const logged = { moveId: move.id, projectId: move.projectId, from: move.sourceStorageName, to: move.destinationStorageName };
    const repository = await this.#repositories.find(move.projectId);
    if (!repository) {
      await this.#em.transactional(() => this.#moves.fail(move, 'the repository no longer exists'));
      this.#logger.warn(logged, 'storage move failed: the repository no longer exists');
      return;
    }
    const source = this.#storages.pathOf({ storage: move.sourceStorageName, diskPath: repository.diskPath });
    const destination = this.#storages.has(move.destinationStorageName)
      ? this.#storages.pathOf({ storage: move.destinationStorageName, diskPath: repository.diskPath })
      : undefined;
    if (move.state !== 'replicated') {
      if (move.state === 'scheduled') move = await this.#em.transactional(() => this.#moves.transition(move, 'started'));
      try {
        if (!destination) throw new Error(`unknown repository storage "${move.destinationStorageName}"`);
        // The switch commits with the transaction that held the repository's lock while it copied.
        move = await this.#em.transactional(async () => {
          await this.#repositories.lock(move.projectId);
          // The same storage (GitLab moves there when the weights choose it): nothing to copy.
          if (destination !== source) await replicate(source, destination);
          return this.#moves.switchStorage(move);
        });
      } catch (error) {
        if (destination && destination !== source) await rm(destination, { recursive: true, force: true }).catch(() => undefined);
        const reason = error instanceof Error ? error.message : String(error);
        await this.#em.transactional(() => this.#moves.fail(move, reason));
        this.#logger.warn({ ...logged, reason }, 'storage move failed; the repository stays where it was');
        return;
      }
    }
    if (destination === source) {
      await this.#em.transactional(() => this.#moves.transition(move, 'finished'));
      return;
    }
    try {
      await rm(source, { recursive: true, force: true });
    } catch (error) {
      await this.#em.transactional(() => this.#moves.transition(move, 'cleanup failed'));
      this.#logger.warn({ ...logged, err: error }, 'storage move done, but the original repository was not removed');
      return;
    }
    await this.#em.transactional(() => this.#moves.transition(move, 'finished'));
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
