import { actorOf, type AuthenticatedCaller, type Caller } from '@platform/auth';
import type { EntityManager, Page, PageWindow } from '@platform/db';
import { ConflictError, NotFoundError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import { mayOnPackages, publisherOf } from './package-access.ts';
import type { Package, PackageFile, PackageStatus, PackageTag, PackageType } from './package.entity.ts';
import type { PackageFileStorage } from './package-file-storage.ts';
import type { NewPackageFile, PackageFileOrder, PackageFilter, PackageOrder, PgPackageStore } from './packages-store.ts';
import { packagesEvents } from '@platform/packages-client';
import { packageEventData } from './packages.events.ts';

export interface PackageListOptions {
  packageType?: string | undefined;
  packageName?: string | undefined;
  status?: PackageStatus | undefined;
  includeVersionless: boolean;
  orderBy: PackageOrder;
  sort: 'asc' | 'desc';
  window: PageWindow;
}

/** A stored file going into a version of a package, which it creates when it is the version's first. */
export interface AddedFile {
  project: ProjectAccess;
  packageType: PackageType;
  name: string;
  version: string | null;
  /** The version's state; when undefined, a new version is `default` and an existing one keeps its own. */
  status?: PackageStatus | undefined;
  /** Its bytes, committed to storage: removed again when the file cannot be recorded. */
  file: NewPackageFile;
  /** Whether it takes the place of a file of the same name (Maven's redeploys) or is kept beside it (generic). */
  replace: boolean;
  /** Who publishes: a new version's creator and the actor of its event. */
  caller: Caller;
}

/** A listed package with what its view needs. */
export interface ListedPackage {
  item: Package;
  tags: PackageTag[];
  canDestroy: boolean;
}

/** The Packages API: lists, single packages and their files, deletion with the files on disk. */
export class PackagesService {
  readonly #em: EntityManager;
  readonly #store: PgPackageStore;
  readonly #storage: PackageFileStorage;
  readonly #access: IdentityAccess;
  readonly #logger: Logger;

  constructor(deps: { em: EntityManager; store: PgPackageStore; storage: PackageFileStorage; access: IdentityAccess; logger: Logger }) {
    this.#em = deps.em;
    this.#store = deps.store;
    this.#storage = deps.storage;
    this.#access = deps.access;
    this.#logger = deps.logger;
  }

  async listForProject(project: ProjectAccess, options: PackageListOptions): Promise<Page<ListedPackage>> {
    return this.#listed(await this.#store.list(this.#filter([project.id], options), options), () => mayOnPackages(project, 'destroy'));
  }

  /** Packages of the group's projects (and its subgroups' unless excluded) that the caller may read. */
  async listForGroup(
    options: PackageListOptions & { groupId: number; includeSubgroups: boolean; caller: Caller },
  ): Promise<Page<ListedPackage>> {
    const candidates = await this.#store.projectsInGroup({ groupId: options.groupId, includeSubgroups: options.includeSubgroups });
    const seen = await Promise.all(
      candidates.map((projectId) =>
        this.#access.project({ idOrPath: String(projectId), caller: options.caller }).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }),
      ),
    );
    const readable = seen.filter((project): project is ProjectAccess => project !== undefined && mayOnPackages(project, 'read'));
    const byId = new Map(readable.map((project) => [project.id, project]));
    const page = await this.#store.list(this.#filter([...byId.keys()], options), options);
    return this.#listed(page, (item) => {
      const project = byId.get(item.projectId);
      return project !== undefined && mayOnPackages(project, 'destroy');
    });
  }

  async get(project: ProjectAccess, packageId: number): Promise<{ item: Package; tags: PackageTag[]; versions: ListedPackage[] }> {
    const item = await this.#found(project, packageId);
    const siblings = (await this.#store.versions({ projectId: project.id, packageType: item.packageType, name: item.name })).filter(
      (version) => version.id !== item.id,
    );
    const tags = await this.#store.tagsOf([item.id, ...siblings.map((version) => version.id)]);
    const tagsOf = (id: number) => tags.filter((tag) => tag.packageId === id);
    return {
      item,
      tags: tagsOf(item.id),
      versions: siblings.map((version) => ({ item: version, tags: tagsOf(version.id), canDestroy: false })),
    };
  }

  async files(project: ProjectAccess, packageId: number, order?: { by: PackageFileOrder; sort: 'asc' | 'desc' }): Promise<PackageFile[]> {
    return this.#store.files((await this.#found(project, packageId)).id, order);
  }

  /**
   * Records a stored file in its package version, creating the version (with the event saying it
   * was published, unless it is not listed) or joining the existing one, also when a concurrent
   * upload created it first. Answers the file's record.
   */
  async addFile(added: AddedFile): Promise<PackageFile> {
    const version = { projectId: added.project.id, packageType: added.packageType, name: added.name, version: added.version };
    const publisher = publisherOf(added.caller);
    const join = async (existing: Package) => {
      const { file, replaced } = await this.#em.transactional(async () => {
        const result = await this.#store.addFile({ packageId: existing.id, file: added.file, replace: added.replace });
        if (added.status && added.status !== existing.status) await this.#store.updateStatus(existing.id, added.status);
        return result;
      });
      if (replaced) await this.#removeFiles([replaced]);
      return file;
    };
    const create = () =>
      this.#em.transactional(async () => {
        const created = await this.#store.insertPackage({
          package: {
            ...version,
            projectPath: added.project.pathWithNamespace,
            namespaceIds: added.project.namespaceIds,
            status: added.status ?? 'default',
            metadata: null,
            creatorId: publisher.creatorId,
          },
          file: added.file,
          events: (item) =>
            item.status === 'default'
              ? [packagesEvents.packagePublished.event({ aggregateId: item.projectId, data: packageEventData(item) })]
              : [],
          actor: publisher.actor,
        });
        const file = await this.#store.findFile({ packageId: created.id, fileName: added.file.fileName });
        if (!file) throw new Error(`package ${created.id} lost the file it was created with`);
        return file;
      });
    try {
      const existing = await this.#store.findVersion(version);
      if (existing) return await join(existing);
      try {
        return await create();
      } catch (error) {
        // A concurrent upload created the version first: the file joins it.
        const winner = error instanceof ConflictError ? await this.#store.findVersion(version) : null;
        if (!winner) throw error;
        return await join(winner);
      }
    } catch (error) {
      await this.#removeFiles([added.file.storagePath]);
      throw error;
    }
  }

  /** Removes the package and its files; the event tells audit. */
  async delete(project: ProjectAccess, packageId: number, caller: AuthenticatedCaller): Promise<void> {
    const item = await this.#found(project, packageId);
    const storagePaths = await this.#em.transactional(() =>
      this.#store.deletePackage({
        target: item,
        events: [packagesEvents.packageDeleted.event({ aggregateId: item.projectId, data: packageEventData(item) })],
        actor: actorOf(caller),
      }),
    );
    await this.#removeFiles(storagePaths);
  }

  async deleteFile(project: ProjectAccess, options: { packageId: number; fileId: number }): Promise<void> {
    const item = await this.#found(project, options.packageId);
    const file = (await this.#store.files(item.id)).find((candidate) => candidate.id === options.fileId);
    if (!file) throw new NotFoundError('Package file');
    await this.#store.deleteFile(file);
    await this.#removeFiles([file.storagePath]);
  }

  /** A deleted project's packages go with it, files included. */
  async removeProject(projectId: number): Promise<void> {
    await this.#removeFiles(await this.#em.transactional(() => this.#store.deleteProjectPackages(projectId)));
  }

  /**
   * Refreshes the project path and ancestry kept with the packages of the projects named, after a
   * rename or transfer of them or of a group above them; a project deleted meanwhile is left to
   * its own deletion event.
   */
  async followProjects(projectIds: number[]): Promise<void> {
    for (const projectId of projectIds) {
      const placement = await this.#access.projectPlacement(projectId);
      if (placement) await this.#store.movePackagesOf(projectId, placement);
    }
  }

  /** Projects whose packages sit under a group, directly or in its subgroups. */
  projectsUnderGroup(groupId: number): Promise<number[]> {
    return this.#store.projectsInGroup({ groupId, includeSubgroups: true });
  }

  async #found(project: ProjectAccess, packageId: number): Promise<Package> {
    const item = await this.#store.find(project.id, packageId);
    if (!item || item.status === 'hidden' || item.status === 'processing') throw new NotFoundError('Package');
    return item;
  }

  #filter(projectIds: number[], options: PackageListOptions): PackageFilter {
    return {
      projectIds,
      packageType: options.packageType,
      packageName: options.packageName,
      status: options.status,
      includeVersionless: options.includeVersionless,
    };
  }

  async #listed(page: Page<Package>, canDestroy: (item: Package) => boolean): Promise<Page<ListedPackage>> {
    const tags = await this.#store.tagsOf(page.items.map((item) => item.id));
    return {
      ...page,
      items: page.items.map((item) => ({ item, tags: tags.filter((tag) => tag.packageId === item.id), canDestroy: canDestroy(item) })),
    };
  }

  /** Files whose records are gone; one that cannot be removed is logged and left behind, never served. */
  async #removeFiles(storagePaths: string[]): Promise<void> {
    for (const storagePath of storagePaths) {
      await this.#storage
        .remove(storagePath)
        .catch((error: unknown) => this.#logger.warn({ err: error, storagePath }, 'package file left on disk'));
    }
  }
}
