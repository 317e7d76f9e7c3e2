import type { AuthenticatedCaller, Caller } from '@platform/auth';
import { ConflictError, ForbiddenError, InputError, NotFoundError } from '@platform/errors';
import type { EntityManager } from '@platform/db';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import type { Readable } from 'node:stream';
import { callerMayOnPackages, publisherOf } from '../packages/package-access.ts';
import type { Package } from '../packages/package.entity.ts';
import type { PackageFileStorage } from '../packages/package-file-storage.ts';
import type { PgPackageStore } from '../packages/packages-store.ts';
import type { PackagesService } from '../packages/packages-service.ts';
import { packagesEvents } from '@platform/packages-client';
import { packageEventData } from '../packages/packages.events.ts';
import { SEMVER, type NpmDeprecateInput, type NpmPublishInput } from './npm.schemas.ts';

/** GitLab's refusal of a version that exists, for `npm publish` and a replayed request alike, naming the version. */
const packageExists = (name: string, version: string) => `Package already exists: ${name}@${version}`;

/** A package's versions and dist-tags, as the registry's metadata document shows them. */
export interface NpmPackageDocument {
  name: string;
  versions: Array<{ item: Package; fileName: string }>;
  distTags: Record<string, string>;
}

/** `@acme/kit` 1.2.0 is stored as `@acme/kit-1.2.0.tgz`, as GitLab names it: the `_attachments` key npm sends. */
export const tarballName = (name: string, version: string) => `${name}-${version}.tgz`;

/**
 * The version a tarball's file name stands for, or '' when it names none of this package. Besides
 * the stored name, a scoped package's tarball also answers to the name without its scope
 * (`kit-1.2.0.tgz`): npm's own convention, and the name lockfiles written before files took the
 * scope hold in their `resolved` URLs.
 */
function versionInTarballName(name: string, fileName: string): string {
  if (!fileName.endsWith('.tgz')) return '';
  const prefixes = [`${name}-`, `${name.slice(name.lastIndexOf('/') + 1)}-`];
  const prefix = prefixes.find((candidate) => fileName.startsWith(candidate));
  return prefix ? fileName.slice(prefix.length, -'.tgz'.length) : '';
}

/**
 * GitLab's npm registry: publish, deprecate and unpublish, metadata, tarballs and dist-tags of a
 * project's npm packages.
 */
export class NpmRegistry {
  readonly #em: EntityManager;
  readonly #store: PgPackageStore;
  readonly #storage: PackageFileStorage;
  readonly #packages: PackagesService;
  readonly #access: IdentityAccess;
  readonly #maxFileBytes: number;

  constructor(deps: {
    em: EntityManager;
    store: PgPackageStore;
    storage: PackageFileStorage;
    packages: PackagesService;
    access: IdentityAccess;
    maxFileBytes: number;
  }) {
    this.#em = deps.em;
    this.#store = deps.store;
    this.#storage = deps.storage;
    this.#packages = deps.packages;
    this.#access = deps.access;
    this.#maxFileBytes = deps.maxFileBytes;
  }

  /** Stores the one version `npm publish` sent, its tarball verified against the digests npm computed. */
  async publish(project: ProjectAccess, caller: Caller, input: NpmPublishInput): Promise<Package> {
    const publisher = publisherOf(caller);
    const name = input.package_name;
    const versions = Object.values(input.versions);
    const attachments = Object.values(input._attachments);
    const [manifest] = versions;
    const [attachment] = attachments;
    if (!manifest || versions.length !== 1) throw new InputError('versions must hold exactly one version');
    if (!attachment || attachments.length !== 1) throw new InputError('_attachments must hold exactly one tarball');
    if (input.name !== name || manifest.name !== name) throw new InputError('name does not match the package of the URL');
    const version = manifest.version;
    if (await this.#store.findVersion({ projectId: project.id, packageType: 'npm', name, version })) {
      throw new ForbiddenError(packageExists(name, version));
    }
    const content = Buffer.from(attachment.data, 'base64');
    const staged = await this.#storage.stage(content, { maxBytes: this.#maxFileBytes });
    const integrity = `sha512-${staged.sha512}`;
    const declared = manifest.dist ?? {};
    const problem =
      (content.length === 0 && '_attachments holds an empty tarball') ||
      (attachment.length !== undefined && attachment.length !== staged.size && '_attachments length does not match the tarball') ||
      (declared.shasum !== undefined && declared.shasum !== staged.sha1 && 'dist shasum does not match the tarball') ||
      (declared.integrity?.startsWith('sha512-') && declared.integrity !== integrity && 'dist integrity does not match the tarball');
    if (problem) {
      await staged.discard();
      throw new InputError(problem);
    }
    const storagePath = await staged.commit();
    try {
      return await this.#em.transactional(() =>
        this.#store.insertPackage({
          package: {
            projectId: project.id,
            projectPath: project.pathWithNamespace,
            namespaceIds: project.namespaceIds,
            name,
            version,
            packageType: 'npm',
            status: 'default',
            metadata: { ...manifest, dist: { shasum: staged.sha1, integrity } },
            creatorId: publisher.creatorId,
          },
          file: {
            fileName: tarballName(name, version),
            size: staged.size,
            fileMd5: staged.md5,
            fileSha1: staged.sha1,
            fileSha256: staged.sha256,
            storagePath,
          },
          tags: Object.entries(input['dist-tags'])
            .filter(([, tagged]) => tagged === version)
            .map(([tag]) => tag),
          events: (created) => [packagesEvents.packagePublished.event({ aggregateId: project.id, data: packageEventData(created) })],
          actor: publisher.actor,
        }),
      );
    } catch (error) {
      await this.#storage.remove(storagePath);
      // Another publish of the same version won the race.
      if (error instanceof ConflictError) throw new ForbiddenError(packageExists(name, version));
      throw error;
    }
  }

  async document(project: ProjectAccess, name: string): Promise<NpmPackageDocument> {
    const versions = await this.#store.versions({ projectId: project.id, packageType: 'npm', name });
    if (versions.length === 0) throw new NotFoundError('Package');
    const tags = await this.#store.tags({ projectId: project.id, packageName: name });
    const versionOf = new Map(versions.map((item) => [item.id, item.version ?? '']));
    return {
      name,
      versions: versions.map((item) => ({ item, fileName: tarballName(name, item.version ?? '') })),
      distTags: Object.fromEntries(
        tags.flatMap((tag) => {
          const version = versionOf.get(tag.packageId);
          return version === undefined ? [] : [[tag.name, version]];
        }),
      ),
    };
  }

  async tarball(project: ProjectAccess, options: { name: string; fileName: string }): Promise<{ size: number; stream: Readable }> {
    const item = await this.#versionOfTarball(project, options);
    const file = item ? await this.#store.findFile({ packageId: item.id, fileName: tarballName(options.name, item.version ?? '') }) : null;
    if (!file) throw new NotFoundError('Package');
    return { size: file.size, stream: await this.#storage.read(file.storagePath) };
  }

  /**
   * What `npm deprecate` PUTs: the package document with `deprecated` set on the versions it
   * deprecates, empty to undeprecate; versions without the key are left as they are.
   */
  async deprecate(project: ProjectAccess, input: NpmDeprecateInput): Promise<void> {
    const versions = await this.#store.versions({ projectId: project.id, packageType: 'npm', name: input.package_name });
    if (versions.length === 0) throw new NotFoundError('Package');
    for (const item of versions) {
      const message = input.versions[item.version ?? '']?.deprecated;
      if (message === undefined) continue;
      const { deprecated: _previous, ...manifest } = item.metadata ?? {};
      await this.#store.updateMetadata(item.id, message === '' ? manifest : { ...manifest, deprecated: message });
    }
  }

  /** `npm unpublish <name>`, or of its only version: every version goes, files and tags with them. */
  async unpublishAll(project: ProjectAccess, caller: AuthenticatedCaller, name: string): Promise<void> {
    const versions = await this.#store.versions({ projectId: project.id, packageType: 'npm', name });
    if (versions.length === 0) throw new NotFoundError('Package');
    for (const item of versions) await this.#packages.delete(project, item.id, caller);
  }

  /**
   * The first step of `npm unpublish <name>@<version>`: the package document without that version
   * and with its dist-tags moved. Versions missing from `keep` are removed; the tags given are set.
   */
  async keepVersions(
    project: ProjectAccess,
    caller: AuthenticatedCaller,
    options: { name: string; keep: string[]; distTags: Record<string, string> },
  ): Promise<void> {
    const versions = await this.#store.versions({ projectId: project.id, packageType: 'npm', name: options.name });
    if (versions.length === 0) throw new NotFoundError('Package');
    const kept = new Set(options.keep);
    for (const item of versions) if (!kept.has(item.version ?? '')) await this.#packages.delete(project, item.id, caller);
    for (const [tag, version] of Object.entries(options.distTags)) {
      const target = versions.find((item) => item.version === version && kept.has(version));
      if (target) await this.#store.setTag({ tag, target });
    }
  }

  /** The last step of `npm unpublish <name>@<version>`: the version whose tarball it names goes. */
  async unpublishTarball(project: ProjectAccess, caller: AuthenticatedCaller, options: { name: string; fileName: string }): Promise<void> {
    const item = await this.#versionOfTarball(project, options);
    if (!item) throw new NotFoundError('Package');
    await this.#packages.delete(project, item.id, caller);
  }

  /** The published version a tarball name (`@acme/kit-1.2.0.tgz`, `kit-1.2.0.tgz`) stands for, if any. */
  async #versionOfTarball(project: ProjectAccess, options: { name: string; fileName: string }): Promise<Package | null> {
    const version = versionInTarballName(options.name, options.fileName);
    const item = SEMVER.test(version)
      ? await this.#store.findVersion({ projectId: project.id, packageType: 'npm', name: options.name, version })
      : null;
    return item?.status === 'default' ? item : null;
  }

  async distTags(project: ProjectAccess, name: string): Promise<Record<string, string>> {
    return (await this.document(project, name)).distTags;
  }

  async setDistTag(project: ProjectAccess, options: { name: string; tag: string; version: string }): Promise<void> {
    const target = await this.#store.findVersion({
      projectId: project.id,
      packageType: 'npm',
      name: options.name,
      version: options.version,
    });
    if (!target || target.status !== 'default') throw new NotFoundError('Package');
    await this.#store.setTag({ tag: options.tag, target });
  }

  async removeDistTag(project: ProjectAccess, options: { name: string; tag: string }): Promise<void> {
    const removed = await this.#store.removeTag({ projectId: project.id, packageName: options.name, tag: options.tag });
    if (!removed) throw new NotFoundError('Tag');
  }

  /**
   * The project behind an instance-level request, as GitLab finds it: the most recent project
   * holding the package whose top-level namespace is the package's scope, among those the caller
   * may read. Unscoped packages have no project at instance level.
   */
  async projectOfScopedPackage(options: { name: string; caller: Caller }): Promise<ProjectAccess> {
    const scope = /^@([^/]+)\//.exec(options.name)?.[1]?.toLowerCase();
    if (scope) {
      for (const projectId of await this.#store.projectsWithPackage({ packageType: 'npm', name: options.name })) {
        const project = await this.#access.project({ idOrPath: String(projectId), caller: options.caller }).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        });
        if (
          project &&
          project.pathWithNamespace.split('/')[0]?.toLowerCase() === scope &&
          callerMayOnPackages(options.caller, project, 'read')
        )
          return project;
      }
    }
    throw new NotFoundError('Package');
  }
}
