import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { enqueueJob } from '@platform/service';
import type { CleanupRules } from './cleanup-rules.ts';
import { ContainerRepository, ContainerTag } from './container-registry.entity.ts';
import { cleanupTagsJob, deleteRepositoryJob } from './container-registry.jobs.ts';

/** The only code of the container registry touching the database. */
export class PgContainerRegistryStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** The repository at `path`, made when it is new (a push to it was just authorised). */
  async ensureRepository(options: { projectId: number; projectPath: string; namespaceIds: number[]; name: string; path: string }) {
    await this.#em.execute(
      `insert into container_repositories (project_id, project_path, namespace_ids, name, path, created_at)
       values (?, ?, ?::jsonb, ?, ?, now()) on conflict (path) do nothing`,
      [options.projectId, options.projectPath, JSON.stringify(options.namespaceIds), options.name, options.path],
    );
  }

  repositoryByPath(path: string): Promise<ContainerRepository | null> {
    return this.#em.findOne(ContainerRepository, { path });
  }

  repository(id: number): Promise<ContainerRepository | null> {
    return this.#em.findOne(ContainerRepository, { id });
  }

  repositoriesOf(projectIds: number[], window: { offset: number; limit: number }) {
    return this.#em.findAndCount(
      ContainerRepository,
      { projectId: { $in: projectIds } },
      { orderBy: { id: 'asc' }, offset: window.offset, limit: window.limit },
    );
  }

  async projectsInGroup(groupId: number): Promise<number[]> {
    const rows = await this.#em.execute<Array<{ project_id: string }>>(
      'select distinct project_id from container_repositories where namespace_ids @> ?::jsonb',
      [JSON.stringify([groupId])],
    );
    return rows.map((row) => Number(row.project_id));
  }

  /** Those of the projects whose repositories hold at least one tag. */
  async projectsWithTags(projectIds: number[]): Promise<number[]> {
    if (projectIds.length === 0) return [];
    const rows = await this.#em.execute<Array<{ project_id: string }>>(
      `select distinct repository.project_id from container_repositories repository
       where repository.project_id = any(?::bigint[])
         and exists (select 1 from container_tags tag where tag.repository_id = repository.id)`,
      [`{${projectIds.join(',')}}`],
    );
    return rows.map((row) => Number(row.project_id));
  }

  tagsOf(repositoryIds: number[]): Promise<ContainerTag[]> {
    return this.#em.find(ContainerTag, { repositoryId: { $in: repositoryIds } }, { orderBy: { name: 'asc' } });
  }

  tag(repositoryId: number, name: string): Promise<ContainerTag | null> {
    return this.#em.findOne(ContainerTag, { repositoryId, name });
  }

  /** Records a pushed tag (new, or moved to another manifest) with its event, in the caller's transaction. */
  async upsertTag(values: Omit<ContainerTag, 'id'>, event: (tag: ContainerTag) => OutgoingEvent, actor: EventActor | null): Promise<void> {
    const em = this.#em;
    const existing = await em.findOne(
      ContainerTag,
      { repositoryId: values.repositoryId, name: values.name },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (existing?.digest === values.digest) return;
    const tag = existing ? Object.assign(existing, values) : em.create(ContainerTag, values);
    await em.flush();
    recordEvent(em, { ...event(tag), actor });
  }

  /** Forgets tags, with an event for each that was there, in the caller's transaction; answers those that were. */
  async deleteTags(
    repositoryId: number,
    where: { names?: string[]; digest?: string },
    event: (tag: ContainerTag) => OutgoingEvent,
    actor: EventActor | null,
  ): Promise<ContainerTag[]> {
    const em = this.#em;
    const tags = await em.find(ContainerTag, {
      repositoryId,
      ...(where.names ? { name: { $in: where.names } } : {}),
      ...(where.digest ? { digest: where.digest } : {}),
    });
    if (tags.length === 0) return [];
    await em.nativeDelete(ContainerTag, { id: { $in: tags.map((tag) => tag.id) } });
    for (const tag of tags) recordEvent(em, { ...event(tag), actor });
    return tags;
  }

  /**
   * Takes the repository's hourly bulk deletion and queues the job, in the caller's transaction:
   * false, and nothing queued, when one was asked for less than an hour ago.
   */
  async scheduleCleanup(repositoryId: number, rules: CleanupRules, actor: EventActor | null): Promise<boolean> {
    const em = this.#em;
    const taken = await em.execute<Array<{ id: string }>>(
      `update container_repositories set cleanup_requested_at = now()
       where id = ? and (cleanup_requested_at is null or cleanup_requested_at <= now() - interval '1 hour') returning id`,
      [repositoryId],
    );
    if (taken.length === 0) return false;
    enqueueJob(em, cleanupTagsJob, { repositoryId, rules, actor });
    return true;
  }

  /** Marks the repository for deletion and queues its job, in the caller's transaction. */
  async scheduleDeletion(repositoryId: number, actor: EventActor | null): Promise<void> {
    const em = this.#em;
    await em.nativeUpdate(ContainerRepository, { id: repositoryId }, { status: 'delete_scheduled' });
    enqueueJob(em, deleteRepositoryJob, { repositoryId, actor });
  }

  /**
   * A deleted project's repositories: each not yet scheduled is marked and gets a deletion job, in
   * the caller's transaction; one already scheduled is left to its job (the event may come more than once).
   */
  async scheduleProjectDeletion(projectId: number, actor: EventActor | null): Promise<number> {
    const em = this.#em;
    const scheduled = await em.execute<Array<{ id: string }>>(
      `update container_repositories set status = 'delete_scheduled'
       where project_id = ? and status is distinct from 'delete_scheduled' returning id`,
      [projectId],
    );
    for (const { id } of scheduled) enqueueJob(em, deleteRepositoryJob, { repositoryId: Number(id), actor });
    return scheduled.length;
  }

  /**
   * A moved or renamed project's repositories that hold no tag take its new path (what a push to
   * it is recorded under). One with tags keeps the path its images are stored at: identity refuses
   * such moves, so only a push racing a move can leave one; and none takes a path already in use.
   */
  async moveTaglessRepositoriesOf(projectId: number, placement: { pathWithNamespace: string; namespaceIds: number[] }): Promise<void> {
    await this.#em.execute(
      `update container_repositories repository
       set project_path = moved.project_path, namespace_ids = ?::jsonb, path = moved.path
       from (select id, ?::text as project_path,
                    case when name = '' then ?::text else ?::text || '/' || name end as path
             from container_repositories where project_id = ? and status is null) moved
       where repository.id = moved.id
         and repository.path <> moved.path
         and not exists (select 1 from container_tags tag where tag.repository_id = repository.id)
         and not exists (select 1 from container_repositories other where other.path = moved.path)`,
      [
        JSON.stringify(placement.namespaceIds),
        placement.pathWithNamespace,
        placement.pathWithNamespace,
        placement.pathWithNamespace,
        projectId,
      ],
    );
  }

  async deleteRepository(id: number): Promise<void> {
    await this.#em.nativeDelete(ContainerRepository, { id });
  }
}
