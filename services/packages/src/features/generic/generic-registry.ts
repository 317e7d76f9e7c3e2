import type { Readable } from 'node:stream';
import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import type { EntityManager } from '@platform/db';
import type { ProjectAccess } from '@platform/identity-client';
import { packagesEvents } from '@platform/packages-client';
import type { Package, PackageFile } from '../packages/package.entity.ts';
import type { PackageFileStorage } from '../packages/package-file-storage.ts';
import type { PgPackageStore } from '../packages/packages-store.ts';
import { packageEventData } from '../packages/packages.events.ts';

/** Which file of which package version a request names. */
export interface GenericTarget {
  name: string;
  version: string;
  fileName: string;
}

/** A stored file and the stream of its bytes. */
export interface GenericDownload {
  file: PackageFile;
  stream: Readable;
}

/**
 * GitLab's generic packages: files of any kind uploaded under a package name and version,
 * streamed to storage as they arrive and back as they are read.
 */
export class GenericRegistry {
  readonly #em: EntityManager;
  readonly #store: PgPackageStore;
  readonly #storage: PackageFileStorage;
  readonly #maxFileBytes: number;

  constructor(deps: { em: EntityManager; store: PgPackageStore; storage: PackageFileStorage; maxFileBytes: number }) {
    this.#em = deps.em;
    this.#store = deps.store;
    this.#storage = deps.storage;
    this.#maxFileBytes = deps.maxFileBytes;
  }

  /**
   * Stores the file in its package version, creating the version with the first file (in
   * `status`, default `default`); a later upload with a `status` sets the version's. A file of
   * the same name is replaced.
   */
  async upload(
    project: ProjectAccess,
    caller: AuthenticatedCaller,
    options: { target: GenericTarget; status?: 'default' | 'hidden' | undefined; body: Readable },
  ): Promise<PackageFile> {
    const { target } = options;
    const staged = await this.#storage.stage(options.body, { maxBytes: this.#maxFileBytes });
    const storagePath = await staged.commit();
    const file = {
      fileName: target.fileName,
      size: staged.size,
      fileMd5: staged.md5,
      fileSha1: staged.sha1,
      fileSha256: staged.sha256,
      storagePath,
    };
    const version = { projectId: project.id, packageType: 'generic' as const, name: target.name, version: target.version };
    const putIn = async (existing: Package) => {
      const replaced = await this.#em.transactional(async () => {
        const previous = await this.#store.putFile({ packageId: existing.id, file });
        if (options.status && options.status !== existing.status) await this.#store.updateStatus(existing.id, options.status);
        return previous;
      });
      if (replaced) await this.#storage.remove(replaced);
    };
    try {
      const existing = await this.#store.findVersion(version);
      if (existing) await putIn(existing);
      else {
        await this.#em.transactional(() =>
          this.#store.insertPackage({
            package: {
              projectId: project.id,
              projectPath: project.pathWithNamespace,
              namespaceIds: project.namespaceIds,
              name: target.name,
              version: target.version,
              packageType: 'generic',
              status: options.status ?? 'default',
              metadata: null,
              creatorId: caller.userId,
            },
            file,
            events: (created) =>
              created.status === 'default'
                ? [packagesEvents.packagePublished.event({ aggregateId: project.id, data: packageEventData(created) })]
                : [],
            actor: actorOf(caller),
          }),
        );
      }
    } catch (error) {
      // A concurrent upload created the version first: the file joins it.
      const winner = error instanceof ConflictError ? await this.#store.findVersion(version) : null;
      if (!winner) {
        await this.#storage.remove(storagePath);
        throw error;
      }
      await putIn(winner);
    }
    const stored = await this.#store.findVersion(version);
    const saved = stored && (await this.#store.findFile({ packageId: stored.id, fileName: target.fileName }));
    if (!saved) throw new InputError('file is missing');
    return saved;
  }

  /** The file of a version in a servable state (default or hidden, as GitLab's installable packages). */
  async download(project: ProjectAccess, target: GenericTarget): Promise<GenericDownload> {
    const item = await this.#store.findVersion({
      projectId: project.id,
      packageType: 'generic',
      name: target.name,
      version: target.version,
    });
    const file =
      item && (item.status === 'default' || item.status === 'hidden')
        ? await this.#store.findFile({ packageId: item.id, fileName: target.fileName })
        : null;
    if (!file) throw new NotFoundError();
    return { file, stream: await this.#storage.read(file.storagePath) };
  }
}
