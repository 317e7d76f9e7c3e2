import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@platform/db';
import { recordEvent, type EventActor, type OutgoingEvent } from '@platform/events';
import { ContainerRegistryJob, ContainerRepository, ContainerTag, type ContainerJobKind } from './container-registry.entity.ts';

/** The only code of the container registry touching the database. */
export class PgContainerRegistryStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** The repository at `path`, made when it is new (a push to it was just authorised). */
  async ensureRepository(options: { projectId: number; projectPath: string; namespaceIds: number[]; name: string; path: string }) {
    await this.#em.fork().execute(
      `insert into container_repositories (project_id, project_path, namespace_ids, name, path, created_at)
       values (?, ?, ?::jsonb, ?, ?, now()) on conflict (path) do nothing`,
      [options.projectId, options.projectPath, JSON.stringify(options.namespaceIds), options.name, options.path],
    );
  }

  repositoryByPath(path: string): Promise<ContainerRepository | null> {
    return this.#em.fork().findOne(ContainerRepository, { path });
  }

  repository(id: number): Promise<ContainerRepository | null> {
    return this.#em.fork().findOne(ContainerRepository, { id });
  }

  repositoriesOf(projectIds: number[], window: { offset: number; limit: number }) {
    return this.#em
      .fork()
      .findAndCount(
        ContainerRepository,
        { projectId: { $in: projectIds } },
        { orderBy: { id: 'asc' }, offset: window.offset, limit: window.limit },
      );
  }

  async projectsInGroup(groupId: number): Promise<number[]> {
    const rows = await this.#em
      .fork()
      .execute<
        Array<{ project_id: string }>
      >('select distinct project_id from container_repositories where namespace_ids @> ?::jsonb', [JSON.stringify([groupId])]);
    return rows.map((row) => Number(row.project_id));
  }

  tagsOf(repositoryIds: number[]): Promise<ContainerTag[]> {
    return this.#em.fork().find(ContainerTag, { repositoryId: { $in: repositoryIds } }, { orderBy: { name: 'asc' } });
  }

  tag(repositoryId: number, name: string): Promise<ContainerTag | null> {
    return this.#em.fork().findOne(ContainerTag, { repositoryId, name });
  }

  /** Records a pushed tag (new, or moved to another manifest) with its event, in one transaction. */
  async upsertTag(values: Omit<ContainerTag, 'id'>, event: (tag: ContainerTag) => OutgoingEvent, actor: EventActor | null): Promise<void> {
    await this.#em.fork().transactional(async (em) => {
      const existing = await em.findOne(
        ContainerTag,
        { repositoryId: values.repositoryId, name: values.name },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (existing?.digest === values.digest) return;
      const tag = existing ? Object.assign(existing, values) : em.create(ContainerTag, values);
      await em.flush();
      recordEvent(em, { ...event(tag), actor });
    });
  }

  /** Forgets tags, with an event for each that was there, in one transaction; answers those that were. */
  async deleteTags(
    repositoryId: number,
    where: { names?: string[]; digest?: string },
    event: (tag: ContainerTag) => OutgoingEvent,
    actor: EventActor | null,
  ): Promise<ContainerTag[]> {
    return this.#em.fork().transactional(async (em) => {
      const tags = await em.find(ContainerTag, {
        repositoryId,
        ...(where.names ? { name: { $in: where.names } } : {}),
        ...(where.digest ? { digest: where.digest } : {}),
      });
      if (tags.length === 0) return [];
      await em.nativeDelete(ContainerTag, { id: { $in: tags.map((tag) => tag.id) } });
      for (const tag of tags) recordEvent(em, { ...event(tag), actor });
      return tags;
    });
  }

  /**
   * Takes the repository's hourly bulk deletion and queues the job, together: false, and nothing
   * queued, when one was asked for less than an hour ago.
   */
  async scheduleCleanup(repositoryId: number, params: Record<string, unknown>, actor: EventActor | null): Promise<boolean> {
    return this.#em.fork().transactional(async (em) => {
      const taken = await em.execute<Array<{ id: string }>>(
        `update container_repositories set cleanup_requested_at = now()
         where id = ? and (cleanup_requested_at is null or cleanup_requested_at <= now() - interval '1 hour') returning id`,
        [repositoryId],
      );
      if (taken.length === 0) return false;
      await this.#enqueue(em, 'cleanup_tags', repositoryId, params, actor);
      return true;
    });
  }

  async scheduleDeletion(repositoryId: number, actor: EventActor | null): Promise<void> {
    await this.#em.fork().transactional(async (em) => {
      await em.nativeUpdate(ContainerRepository, { id: repositoryId }, { status: 'delete_scheduled' });
      await this.#enqueue(em, 'delete_repository', repositoryId, {}, actor);
    });
  }

  async #enqueue(
    em: EntityManager,
    kind: ContainerJobKind,
    repositoryId: number,
    params: Record<string, unknown>,
    actor: EventActor | null,
  ) {
    await em.execute(
      `insert into container_registry_jobs (kind, repository_id, params, actor, created_at) values (?, ?, ?::jsonb, ?::jsonb, now())`,
      [kind, repositoryId, JSON.stringify(params), actor ? JSON.stringify(actor) : null],
    );
  }

  /**
   * Claims the oldest job that is pending, or running with an expired lease (its process died):
   * `SKIP LOCKED` lets several replicas claim side by side without taking the same job.
   */
  async claimJob(leaseMs: number): Promise<ContainerRegistryJob | undefined> {
    const rows = await this.#em.fork().execute<Array<{ id: string }>>(
      `update container_registry_jobs set state = 'running', attempts = attempts + 1, locked_until = now() + (? * interval '1 millisecond')
       where id = (select id from container_registry_jobs
                   where state = 'pending' or (state = 'running' and locked_until < now())
                   order by id limit 1 for update skip locked)
       returning id`,
      [leaseMs],
    );
    const id = rows[0]?.id;
    return id === undefined ? undefined : ((await this.#em.fork().findOne(ContainerRegistryJob, { id: Number(id) })) ?? undefined);
  }

  async finishJob(id: number, outcome: { state: 'done' | 'failed' | 'pending'; error?: string }): Promise<void> {
    await this.#em
      .fork()
      .nativeUpdate(ContainerRegistryJob, { id }, { state: outcome.state, lockedUntil: null, lastError: outcome.error ?? null });
  }

  async deleteRepository(id: number): Promise<void> {
    await this.#em.fork().nativeDelete(ContainerRepository, { id });
  }
}
