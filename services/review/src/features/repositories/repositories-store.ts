import type { EntityManager } from '@platform/db';
import { recordEvent, type EventActor, type OutgoingEvent } from '@platform/events';
import { reviewEvents } from '@platform/review-client';
import { Repository } from './repository.entity.ts';

/** The advisory lock space of repository locks (the first of the two lock keys). */
const REPOSITORY_LOCKS = 7_301;

export interface RepositoryStore {
  find(projectId: number): Promise<Repository | null>;
  /** Adds the repository unless the project has one, telling where it was created; answers the one it has. */
  insertIfMissing(repository: Pick<Repository, 'projectId' | 'storage' | 'diskPath' | 'createdAt'>): Promise<Repository>;
  delete(projectId: number): Promise<void>;
  /**
   * Runs `work` holding the repository's lock, which every replica of the service shares (a
   * PostgreSQL advisory lock), so that changes to one repository's refs never overlap.
   */
  withRepositoryLock<Result>(projectId: number, work: () => Promise<Result>): Promise<Result>;
  /** Marks the repository pushed and writes the push's events, in one transaction. */
  recordPush(options: { projectId: number; pushedAt: Date; actor: EventActor | null; events: OutgoingEvent[] }): Promise<void>;
}

export class PgRepositoryStore implements RepositoryStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  find(projectId: number): Promise<Repository | null> {
    return this.#em.fork().findOne(Repository, { projectId });
  }

  async insertIfMissing(repository: Pick<Repository, 'projectId' | 'storage' | 'diskPath' | 'createdAt'>): Promise<Repository> {
    return this.#em.fork().transactional(async (em) => {
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
      return em.findOneOrFail(Repository, { projectId: repository.projectId });
    });
  }

  async delete(projectId: number): Promise<void> {
    await this.#em.fork().transactional(async (em) => {
      // Its storage moves go with it, as GitLab's do with their project.
      await em.execute('delete from repository_storage_moves where project_id = ?', [projectId]);
      await em.nativeDelete(Repository, { projectId });
    });
  }

  withRepositoryLock<Result>(projectId: number, work: () => Promise<Result>): Promise<Result> {
    // Held by the transaction, so that a connection lost mid-push releases it too.
    return this.#em.fork().transactional(async (em) => {
      await em.execute('select pg_advisory_xact_lock(?, ?)', [REPOSITORY_LOCKS, projectId]);
      return work();
    });
  }

  async recordPush(options: { projectId: number; pushedAt: Date; actor: EventActor | null; events: OutgoingEvent[] }): Promise<void> {
    await this.#em.fork().transactional(async (em) => {
      await em.nativeUpdate(Repository, { projectId: options.projectId }, { pushedAt: options.pushedAt });
      for (const event of options.events) recordEvent(em, { ...event, actor: options.actor });
    });
  }
}
