import type { EntityManager } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { reviewEvents } from '@platform/review-client';
import { Repository } from './repository.entity.ts';

/** The advisory lock space of repository locks (the first of the two lock keys). */
const REPOSITORY_LOCKS = 7_301;

/** Repositories' rows, in the unit of work (and the transaction) the service opened. */
export interface RepositoryStore {
  /**
   * The project's repository. `fresh` reads it from the database again rather than from the unit
   * of work, as a check whether it is still writable under the repository's lock must.
   */
  find(projectId: number, options?: { fresh?: boolean }): Promise<Repository | null>;
  /** Adds the repository unless the project has one, telling where it was created; answers the one it has. */
  insertIfMissing(repository: Pick<Repository, 'projectId' | 'storage' | 'diskPath' | 'createdAt'>): Promise<Repository>;
  /** Removes the repository's row and its storage moves. */
  delete(projectId: number): Promise<void>;
  /**
   * Takes the repository's lock until the caller's transaction ends. Every replica of the service
   * shares it (a PostgreSQL advisory lock), so that changes to one repository's refs never overlap;
   * a connection lost mid-push releases it too.
   */
  lock(projectId: number): Promise<void>;
  /** Marks the repository pushed and writes the push's events. */
  recordPush(options: { projectId: number; pushedAt: Date; actor: EventActor | null; events: OutgoingEvent[] }): Promise<void>;
}

export class PgRepositoryStore implements RepositoryStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  find(projectId: number, options: { fresh?: boolean } = {}): Promise<Repository | null> {
    return this.#em.findOne(Repository, { projectId }, { refresh: options.fresh ?? false });
  }

  async insertIfMissing(repository: Pick<Repository, 'projectId' | 'storage' | 'diskPath' | 'createdAt'>): Promise<Repository> {
    const em = this.#em;
    const inserted = await em.execute(
      'insert into repositories (project_id, storage, disk_path, created_at) values (?, ?, ?, ?) on conflict (project_id) do nothing returning project_id',
      [repository.projectId, repository.storage, repository.diskPath, repository.createdAt],
    );
    if (inserted.length > 0) {
      const { projectId, storage } = repository;
      recordEvent(em, {
        ...reviewEvents.repositoryStorageChanged.event({ aggregateId: projectId, data: { projectId, storage } }),
        actor: null,
      });
    }
    return em.findOneOrFail(Repository, { projectId: repository.projectId }, { refresh: true });
  }

  async delete(projectId: number): Promise<void> {
    // Its storage moves go with it, as GitLab's do with their project.
    await this.#em.execute('delete from repository_storage_moves where project_id = ?', [projectId]);
    await this.#em.nativeDelete(Repository, { projectId });
  }

  async lock(projectId: number): Promise<void> {
    // Outside a transaction the lock would end with its own statement.
    if (!this.#em.isInTransaction()) throw new Error('a repository lock is taken in a transaction');
    await this.#em.execute('select pg_advisory_xact_lock(?, ?)', [REPOSITORY_LOCKS, projectId]);
  }

  async recordPush(options: { projectId: number; pushedAt: Date; actor: EventActor | null; events: OutgoingEvent[] }): Promise<void> {
    await this.#em.nativeUpdate(Repository, { projectId: options.projectId }, { pushedAt: options.pushedAt });
    for (const event of options.events) recordEvent(this.#em, { ...event, actor: options.actor });
  }
}
