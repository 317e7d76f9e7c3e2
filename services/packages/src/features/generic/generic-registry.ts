import type { Readable } from 'node:stream';
import type { Caller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import type { ProjectAccess } from '@platform/identity-client';
import type { PackageFile } from '../packages/package.entity.ts';
import type { PackageFileStorage } from '../packages/package-file-storage.ts';
import type { PackagesService } from '../packages/packages-service.ts';
import type { PgPackageStore } from '../packages/packages-store.ts';

/** Which file of which package version a request names. */
export interface GenericTarget {
  name: string;
  version: string;
  /** The directories before the file's name (`dist/linux`), if any. */
  path?: string | undefined;
  fileName: string;
}

/** A stored file and the stream of its bytes. */
export interface GenericDownload {
  file: PackageFile;
  stream: Readable;
}

/**
 * What Ruby's `URI.encode_uri_component` leaves as it is; JavaScript's `encodeURIComponent` also
 * leaves `!`, `~`, `'`, `(` and `)`, which Ruby escapes.
 */
const escapeAsRuby = (value: string) =>
  encodeURIComponent(value).replace(/[!~'()]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The package file's name as GitLab records it: the file's name, or with directories the whole
 * path escaped as one URI component (`dist/linux/tool` is `dist%2Flinux%2Ftool`).
 */
export const packageFileName = (target: GenericTarget) =>
  target.path ? escapeAsRuby(`${target.path}/${target.fileName}`) : target.fileName;

/**
 * GitLab's generic packages: files of any kind uploaded under a package name and version,
 * streamed to storage as they arrive and back as they are read.
 */
export class GenericRegistry {
  readonly #store: PgPackageStore;
  readonly #storage: PackageFileStorage;
  readonly #packages: PackagesService;
  readonly #maxFileBytes: number;

  constructor(deps: { store: PgPackageStore; storage: PackageFileStorage; packages: PackagesService; maxFileBytes: number }) {
    this.#store = deps.store;
    this.#storage = deps.storage;
    this.#packages = deps.packages;
    this.#maxFileBytes = deps.maxFileBytes;
  }

  /**
   * Stores the file in its package version, creating the version with the first file (in
   * `status`, default `default`); a later upload with a `status` sets the version's. A file of
   * the same name is kept beside the earlier ones (GitLab allows duplicates unless a namespace
   * setting refuses them, which the platform does not have): downloads serve the newest.
   */
  async upload(
    project: ProjectAccess,
    caller: Caller,
    options: { target: GenericTarget; status?: 'default' | 'hidden' | undefined; body: Readable },
  ): Promise<PackageFile> {
    const { target } = options;
    const staged = await this.#storage.stage(options.body, { maxBytes: this.#maxFileBytes });
    const storagePath = await staged.commit();
    return this.#packages.addFile({
      project,
      packageType: 'generic',
      name: target.name,
      version: target.version,
      status: options.status,
      file: {
        fileName: packageFileName(target),
        size: staged.size,
        fileMd5: staged.md5,
        fileSha1: staged.sha1,
        fileSha256: staged.sha256,
        storagePath,
      },
      replace: false,
      caller,
    });
  }

  /** The newest file of that name in a version in a servable state (default or hidden, as GitLab's installable packages). */
  async download(project: ProjectAccess, target: GenericTarget): Promise<GenericDownload> {
    const item = await this.#store.findVersion({
      projectId: project.id,
      packageType: 'generic',
      name: target.name,
      version: target.version,
    });
    const file =
      item && (item.status === 'default' || item.status === 'hidden')
        ? await this.#store.findFile({ packageId: item.id, fileName: packageFileName(target) })
        : null;
    if (!file) throw new NotFoundError();
    return { file, stream: await this.#storage.read(file.storagePath) };
  }
}
