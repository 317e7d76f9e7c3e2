import { actorOf, type AuthenticatedCaller, type Caller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import type { EntityManager } from '@platform/db';
import type { EventActor } from '@platform/events';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import { packagesEvents } from '@platform/packages-client';
import { tagsToDelete, type CleanupRules } from './cleanup-rules.ts';
import type { ContainerRepository, ContainerTag } from './container-registry.entity.ts';
import type { PgContainerRegistryStore } from './container-registry-store.ts';
import { DUMMY_CONFIG_DIGEST, RegistryError, type RegistryClient } from './registry-client.ts';
import { mayOnContainerImages } from './registry-access.ts';

/** One event of the registry's notifications, as far as this service reads it. */
export interface RegistryNotification {
  action?: string;
  target?: { mediaType?: string; digest?: string; repository?: string; tag?: string };
  actor?: { name?: string };
}

const MANIFEST_MEDIA_TYPE = /manifest|image\.index/;

export class ContainerRegistryService {
  readonly #em: EntityManager;
  readonly #store: PgContainerRegistryStore;
  readonly #registry: RegistryClient;
  readonly #access: IdentityAccess;
  readonly #logger: Logger;

  constructor(deps: {
    em: EntityManager;
    store: PgContainerRegistryStore;
    registry: RegistryClient;
    access: IdentityAccess;
    logger: Logger;
  }) {
    this.#em = deps.em;
    this.#store = deps.store;
    this.#registry = deps.registry;
    this.#access = deps.access;
    this.#logger = deps.logger;
  }

  /** A push to `path` was authorised: the repository exists from now on, as GitLab makes it. */
  async pushAuthorised(project: ProjectAccess, path: string): Promise<void> {
    const name = path === project.pathWithNamespace ? '' : path.slice(project.pathWithNamespace.length + 1);
    await this.#store.ensureRepository({
      projectId: project.id,
      projectPath: project.pathWithNamespace,
      namespaceIds: project.namespaceIds,
      name,
      path,
    });
  }

  /** Follows the registry: a pushed tag is recorded with its manifest's details; a deleted manifest takes its tags. */
  async notified(event: RegistryNotification): Promise<void> {
    const { target } = event;
    if (!target?.repository || !target.digest) return;
    const repository = await this.#store.repositoryByPath(target.repository);
    if (!repository) {
      this.#logger.warn({ repository: target.repository }, 'registry notification for an unknown repository');
      return;
    }
    if (event.action === 'push' && target.tag && MANIFEST_MEDIA_TYPE.test(target.mediaType ?? '')) {
      const details = await this.#registry.manifestDetails(target.repository, target.digest).catch((error: unknown) => {
        // Deleted since (a tag deletion's stand-in manifest is, at once): nothing to record.
        if (error instanceof RegistryError && error.status === 404) return undefined;
        throw error;
      });
      if (!details) return;
      // The stand-in manifest of a tag deletion in progress is no image.
      if (details.revision === DUMMY_CONFIG_DIGEST.replace(/^sha256:/, '')) return;
      const tagName = target.tag;
      await this.#em.transactional(() =>
        this.#store.upsertTag(
          {
            repositoryId: repository.id,
            name: tagName,
            digest: details.digest,
            revision: details.revision,
            totalSize: details.totalSize,
            imageCreatedAt: details.createdAt,
            pushedAt: new Date(),
          },
          (tag) =>
            packagesEvents.containerTagPushed.event({ aggregateId: repository.projectId, data: this.#tagEventData(repository, tag) }),
          null,
        ),
      );
    }
    if (event.action === 'delete') {
      await this.#em.transactional(() =>
        this.#store.deleteTags(
          repository.id,
          { digest: target.digest },
          (tag) =>
            packagesEvents.containerTagDeleted.event({ aggregateId: repository.projectId, data: this.#tagEventData(repository, tag) }),
          null,
        ),
      );
    }
  }

  async listForProject(project: ProjectAccess, window: { offset: number; limit: number }) {
    const [items, total] = await this.#store.repositoriesOf([project.id], window);
    return { items: await this.#withTags(items), total };
  }

  async listForGroup(groupId: number, caller: Caller, window: { offset: number; limit: number }) {
    const candidates = await this.#store.projectsInGroup(groupId);
    const seen = await Promise.all(
      candidates.map((projectId) =>
        this.#access.project({ idOrPath: String(projectId), caller }).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }),
      ),
    );
    const readable = seen.filter((project): project is ProjectAccess => project !== undefined && mayOnContainerImages(project, 'read'));
    const [items, total] = await this.#store.repositoriesOf(
      readable.map((project) => project.id),
      window,
    );
    return { items: await this.#withTags(items), total };
  }

  /** The repository behind an id, without saying which project: the caller's access is checked against its project. */
  async repositoryById(id: number): Promise<ContainerRepository> {
    const repository = await this.#store.repository(id);
    if (!repository) throw new NotFoundError();
    return repository;
  }

  async repository(project: ProjectAccess, id: number): Promise<ContainerRepository> {
    const repository = await this.#store.repository(id);
    if (!repository || repository.projectId !== project.id) throw new NotFoundError();
    return repository;
  }

  async withTags(repository: ContainerRepository) {
    return (await this.#withTags([repository]))[0] ?? { repository, tags: [] };
  }

  async tags(repository: ContainerRepository): Promise<ContainerTag[]> {
    return this.#store.tagsOf([repository.id]);
  }

  async tag(repository: ContainerRepository, name: string): Promise<ContainerTag> {
    const tag = await this.#store.tag(repository.id, name);
    if (!tag) throw new NotFoundError('Tag');
    return tag;
  }

  /** Deletes one tag in the registry, and only it, then forgets it. */
  async deleteTag(repository: ContainerRepository, name: string, caller: AuthenticatedCaller): Promise<void> {
    await this.tag(repository, name);
    await this.#deleteTags(repository, [name], actorOf(caller));
  }

  /** Those of the projects that have tags in their container registry: their paths cannot move. */
  projectsWithTags(projectIds: number[]): Promise<number[]> {
    return this.#store.projectsWithTags(projectIds);
  }

  /** Queues a bulk deletion; false when the repository had one less than an hour ago. */
  scheduleCleanup(repository: ContainerRepository, rules: CleanupRules, caller: AuthenticatedCaller): Promise<boolean> {
    return this.#em.transactional(() => this.#store.scheduleCleanup(repository.id, rules, actorOf(caller)));
  }

  scheduleDeletion(repository: ContainerRepository, caller: AuthenticatedCaller): Promise<void> {
    return this.#em.transactional(() => this.#store.scheduleDeletion(repository.id, actorOf(caller)));
  }

  /**
   * A deleted project's repositories go with it, in the background: their tags are deleted in the
   * registry, then their records; a registry that is down only delays that.
   */
  async removeProject(projectId: number, actor: EventActor | null): Promise<void> {
    const scheduled = await this.#em.transactional(() => this.#store.scheduleProjectDeletion(projectId, actor));
    if (scheduled > 0)
      this.#logger.info({ projectId, repositories: scheduled }, "deleted project's container repositories scheduled for deletion");
  }

  /** Projects moved or renamed (by themselves or with a group above them): their repositories follow. */
  async followProjects(projectIds: number[]): Promise<void> {
    for (const projectId of projectIds) {
      const placement = await this.#access.projectPlacement(projectId);
      if (placement) await this.#store.moveTaglessRepositoriesOf(projectId, placement);
    }
  }

  /** Projects with repositories under a group, directly or in its subgroups. */
  projectsUnderGroup(groupId: number): Promise<number[]> {
    return this.#store.projectsInGroup(groupId);
  }

  /** Carries out a bulk tag deletion (`cleanupTagsJob`); throws to have it retried. */
  async cleanupTags(job: { repositoryId: number; rules: CleanupRules; actor: EventActor | null }): Promise<void> {
    const repository = await this.#store.repository(job.repositoryId);
    if (!repository) return;
    const tags = await this.#store.tagsOf([repository.id]);
    const doomed = tagsToDelete(
      tags.map((tag) => ({ name: tag.name, createdAt: tag.imageCreatedAt ?? null })),
      job.rules,
      new Date(),
    );
    await this.#deleteTags(repository, doomed, job.actor);
  }

  /** Carries out a repository's deletion (`deleteRepositoryJob`); throws to have it retried. */
  async deleteRepository(job: { repositoryId: number; actor: EventActor | null }): Promise<void> {
    const repository = await this.#store.repository(job.repositoryId);
    if (!repository) return;
    const names = [
      ...new Set([...(await this.#registry.tags(repository.path)), ...(await this.#store.tagsOf([repository.id])).map((tag) => tag.name)]),
    ];
    await this.#deleteTags(repository, names, job.actor);
    await this.#store.deleteRepository(repository.id);
  }

  async #deleteTags(repository: ContainerRepository, names: string[], actor: EventActor | null): Promise<void> {
    if (names.length === 0) return;
    await this.#registry.deleteTags(repository.path, names);
    await this.#em.transactional(() =>
      this.#store.deleteTags(
        repository.id,
        { names },
        (tag) => packagesEvents.containerTagDeleted.event({ aggregateId: repository.projectId, data: this.#tagEventData(repository, tag) }),
        actor,
      ),
    );
  }

  async #withTags(repositories: ContainerRepository[]) {
    const tags = await this.#store.tagsOf(repositories.map((repository) => repository.id));
    return repositories.map((repository) => ({ repository, tags: tags.filter((tag) => tag.repositoryId === repository.id) }));
  }

  #tagEventData(repository: ContainerRepository, tag: ContainerTag) {
    return {
      projectId: repository.projectId,
      repositoryId: repository.id,
      repositoryPath: repository.path,
      tag: tag.name,
      digest: tag.digest,
      projectPath: repository.projectPath,
    };
  }
}
