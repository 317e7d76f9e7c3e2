import type { FilterQuery } from '@mikro-orm/core';
import { findPage, likePattern, translateDbError, type EntityManager, type Page, type PageWindow } from '@platform/db';
import type { EventActor, OutgoingEvent } from '@platform/events';
import { recordEvent } from '@platform/events/database';
import { Package, PackageFile, PackageTag, type PackageStatus, type PackageType } from './package.entity.ts';

export type PackageOrder = 'created_at' | 'name' | 'version' | 'type' | 'project_path';

export interface PackageFilter {
  projectIds: number[];
  packageType?: string | undefined;
  /** Part of the name, any case. */
  packageName?: string | undefined;
  /** One state only; the displayable ones when undefined. */
  status?: PackageStatus | undefined;
  includeVersionless?: boolean;
}

export type NewPackage = Pick<
  Package,
  'projectId' | 'projectPath' | 'namespaceIds' | 'name' | 'version' | 'packageType' | 'status' | 'metadata' | 'creatorId'
>;
export type NewPackageFile = Pick<PackageFile, 'fileName' | 'size' | 'fileMd5' | 'fileSha1' | 'fileSha256' | 'storagePath'>;

/** States the Packages API lists; hidden (Maven metadata) and processing packages are left out. */
const DISPLAYED_STATUSES: PackageStatus[] = ['default', 'error'];

const ORDER_COLUMNS = {
  created_at: 'createdAt',
  name: 'name',
  version: 'version',
  type: 'packageType',
  project_path: 'projectPath',
} as const;

export type PackageFileOrder = 'id' | 'file_name' | 'created_at';

const FILE_ORDER_COLUMNS = { id: 'id', file_name: 'fileName', created_at: 'createdAt' } as const;

/** `%` and `_` match themselves in a fuzzy name filter. */

export class PgPackageStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  list(filter: PackageFilter, options: { orderBy: PackageOrder; sort: 'asc' | 'desc'; window: PageWindow }): Promise<Page<Package>> {
    const where: FilterQuery<Package> = {
      projectId: { $in: filter.projectIds },
      status: filter.status ?? { $in: DISPLAYED_STATUSES },
    };
    if (!filter.includeVersionless) where.version = { $ne: null };
    if (filter.packageType) where.packageType = filter.packageType as PackageType;
    if (filter.packageName) where.name = { $ilike: likePattern(filter.packageName) };
    return findPage(this.#em, Package, where, {
      orderBy: { [ORDER_COLUMNS[options.orderBy]]: options.sort, id: options.sort },
      window: options.window,
    });
  }

  /** Projects with packages in the group (or only directly in it), whoever may see them. */
  async projectsInGroup(options: { groupId: number; includeSubgroups: boolean }): Promise<number[]> {
    const rows = await this.#em.execute<Array<{ project_id: string }>>(
      options.includeSubgroups
        ? 'select distinct project_id from packages where namespace_ids @> ?::jsonb'
        : 'select distinct project_id from packages where namespace_ids @> ?::jsonb and namespace_ids->>-1 = ?',
      options.includeSubgroups ? [JSON.stringify([options.groupId])] : [JSON.stringify([options.groupId]), String(options.groupId)],
    );
    return rows.map((row) => Number(row.project_id));
  }

  find(projectId: number, packageId: number): Promise<Package | null> {
    return this.#em.findOne(Package, { id: packageId, projectId });
  }

  /** A version of a named package in a project, whatever its state. */
  findVersion(options: { projectId: number; packageType: PackageType; name: string; version: string | null }): Promise<Package | null> {
    return this.#em.findOne(Package, {
      projectId: options.projectId,
      packageType: options.packageType,
      name: options.name,
      version: options.version,
    });
  }

  /** Every listed version of a named package in a project, oldest first. */
  versions(options: { projectId: number; packageType: PackageType; name: string }): Promise<Package[]> {
    return this.#em.find(
      Package,
      { projectId: options.projectId, packageType: options.packageType, name: options.name, status: { $in: DISPLAYED_STATUSES } },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
  }

  /** Projects holding a package of that name and type, the most recently published first. */
  async projectsWithPackage(options: { packageType: PackageType; name: string }): Promise<number[]> {
    const rows = await this.#em.execute<Array<{ project_id: string }>>(
      `select project_id from packages where package_type = ? and name = ? and status in ('default', 'error')
       group by project_id order by max(created_at) desc limit 20`,
      [options.packageType, options.name],
    );
    return rows.map((row) => Number(row.project_id));
  }

  /** Projects among `projectIds` (all when undefined) holding that package version, any servable state, the latest first. */
  async projectsHolding(options: {
    packageType: PackageType;
    name: string;
    version: string | null;
    projectIds?: number[];
  }): Promise<number[]> {
    const rows = await this.#em.find(
      Package,
      {
        packageType: options.packageType,
        name: options.name,
        version: options.version,
        status: { $ne: 'processing' },
        ...(options.projectIds ? { projectId: { $in: options.projectIds } } : {}),
      },
      { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 20, fields: ['projectId'] },
    );
    return rows.map((row) => row.projectId);
  }

  files(packageId: number, order: { by: PackageFileOrder; sort: 'asc' | 'desc' } = { by: 'id', sort: 'asc' }): Promise<PackageFile[]> {
    return this.#em.find(PackageFile, { packageId }, { orderBy: { [FILE_ORDER_COLUMNS[order.by]]: order.sort, id: order.sort } });
  }

  filesOf(packageIds: number[]): Promise<PackageFile[]> {
    return this.#em.find(PackageFile, { packageId: { $in: packageIds } }, { orderBy: { id: 'asc' } });
  }

  /** The newest file of that name in a package: a generic package keeps every upload of a name, and serves the last. */
  findFile(options: { packageId: number; fileName: string }): Promise<PackageFile | null> {
    return this.#em.findOne(PackageFile, { packageId: options.packageId, fileName: options.fileName }, { orderBy: { id: 'desc' } });
  }

  /**
   * Adds a package version with its first file and the events describing it, in the caller's
   * transaction; ConflictError when the version exists already (a concurrent publish).
   */
  async insertPackage(options: {
    package: NewPackage;
    file: NewPackageFile;
    tags?: string[];
    events: (created: Package) => OutgoingEvent[];
    actor: EventActor | null;
  }): Promise<Package> {
    const em = this.#em;
    try {
      const now = new Date();
      const created = em.create(Package, { ...options.package, createdAt: now, updatedAt: now });
      await em.flush();
      em.create(PackageFile, { ...options.file, packageId: created.id, createdAt: now });
      for (const tag of options.tags ?? []) await upsertTag(em, { tag, target: created, now });
      for (const event of options.events(created)) recordEvent(em, { ...event, actor: options.actor });
      await em.flush();
      return created;
    } catch (error) {
      throw translateDbError(error, { conflict: 'Package already exists.' });
    }
  }

  /**
   * Adds a file to a package in the caller's transaction. With `replace`, the file takes the place
   * of one of the same name, whose storage path it answers as `replaced`; without, both are kept.
   */
  async addFile(options: {
    packageId: number;
    file: NewPackageFile;
    replace: boolean;
  }): Promise<{ file: PackageFile; replaced?: string | undefined }> {
    const em = this.#em;
    const existing = options.replace ? await this.findFile({ packageId: options.packageId, fileName: options.file.fileName }) : null;
    const now = new Date();
    await em.nativeUpdate(Package, { id: options.packageId }, { updatedAt: now });
    if (existing) {
      const replaced = existing.storagePath;
      em.assign(existing, { ...options.file, createdAt: now });
      await em.flush();
      return { file: existing, replaced };
    }
    const file = em.create(PackageFile, { ...options.file, packageId: options.packageId, createdAt: now });
    await em.flush();
    return { file };
  }

  /**
   * Removes a package, its files' records and its tags with the event saying so, in the caller's
   * transaction; answers the files' storage paths.
   */
  async deletePackage(options: { target: Package; events: OutgoingEvent[]; actor: EventActor | null }): Promise<string[]> {
    const em = this.#em;
    const files = await em.find(PackageFile, { packageId: options.target.id });
    await em.nativeDelete(Package, { id: options.target.id });
    for (const event of options.events) recordEvent(em, { ...event, actor: options.actor });
    return files.map((file) => file.storagePath);
  }

  async deleteFile(file: PackageFile): Promise<void> {
    await this.#em.nativeDelete(PackageFile, { id: file.id });
  }

  /** Sets a version's state (a generic package uploaded again with a `status`), in the caller's transaction. */
  async updateStatus(packageId: number, status: PackageStatus): Promise<void> {
    await this.#em.nativeUpdate(Package, { id: packageId }, { status, updatedAt: new Date() });
  }

  async updateMetadata(packageId: number, metadata: Record<string, unknown>): Promise<void> {
    await this.#em.nativeUpdate(Package, { id: packageId }, { metadata, updatedAt: new Date() });
  }

  /** Removes every package of a deleted project, in the caller's transaction; answers their files' storage paths. */
  async deleteProjectPackages(projectId: number): Promise<string[]> {
    const em = this.#em;
    const rows = await em.execute<Array<{ storage_path: string }>>(
      'select f.storage_path from package_files f join packages p on p.id = f.package_id where p.project_id = ?',
      [projectId],
    );
    await em.nativeDelete(PackageTag, { projectId });
    await em.nativeDelete(Package, { projectId });
    return rows.map((row) => row.storage_path);
  }

  /** Records where a project's packages now live, after a rename or transfer. */
  async movePackagesOf(projectId: number, placement: { pathWithNamespace: string; namespaceIds: number[] }): Promise<void> {
    await this.#em.nativeUpdate(Package, { projectId }, { projectPath: placement.pathWithNamespace, namespaceIds: placement.namespaceIds });
  }

  tags(options: { projectId: number; packageName: string }): Promise<PackageTag[]> {
    return this.#em.find(PackageTag, { projectId: options.projectId, packageName: options.packageName }, { orderBy: { name: 'asc' } });
  }

  tagsOf(packageIds: number[]): Promise<PackageTag[]> {
    return this.#em.find(PackageTag, { packageId: { $in: packageIds } }, { orderBy: { name: 'asc' } });
  }

  async setTag(options: { tag: string; target: Package }): Promise<void> {
    await upsertTag(this.#em, { ...options, now: new Date() });
  }

  /** False when the package has no such tag. */
  async removeTag(options: { projectId: number; packageName: string; tag: string }): Promise<boolean> {
    const removed = await this.#em.nativeDelete(PackageTag, {
      projectId: options.projectId,
      packageName: options.packageName,
      name: options.tag,
    });
    return removed > 0;
  }
}

async function upsertTag(em: EntityManager, options: { tag: string; target: Package; now: Date }): Promise<void> {
  await em.execute(
    `insert into package_tags (package_id, project_id, package_name, name, created_at, updated_at) values (?, ?, ?, ?, ?, ?)
     on conflict (project_id, package_name, name) do update set package_id = excluded.package_id, updated_at = excluded.updated_at`,
    [options.target.id, options.target.projectId, options.target.name, options.tag, options.now, options.now],
  );
}
