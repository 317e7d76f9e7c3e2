import type { Readable } from 'node:stream';
import type { Caller } from '@platform/auth';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import { callerMayOnPackages } from '../packages/package-access.ts';
import type { PackageFileStorage } from '../packages/package-file-storage.ts';
import type { PackagesService } from '../packages/packages-service.ts';
import type { PgPackageStore } from '../packages/packages-store.ts';
import { CHECKSUM_EXTENSIONS, type MavenTarget } from './maven-coordinates.ts';

/** A checksum body is one hex digest, perhaps followed by a file name (`sha1sum`'s output). */
const MAX_CHECKSUM_BYTES = 1024;

/** What a download answers: the file's bytes, or one of its digests as text. */
export type MavenDownload = { kind: 'file'; size: number; stream: Readable } | { kind: 'checksum'; digest: string };

async function text(body: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new InputError('checksum is too long');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8').trim().split(/\s+/)[0] ?? '';
}

/** GitLab's Maven repository: deploys (files and their checksums) and downloads. */
export class MavenRegistry {
  readonly #store: PgPackageStore;
  readonly #storage: PackageFileStorage;
  readonly #packages: PackagesService;
  readonly #access: IdentityAccess;
  readonly #maxFileBytes: number;

  constructor(deps: {
    store: PgPackageStore;
    storage: PackageFileStorage;
    packages: PackagesService;
    access: IdentityAccess;
    maxFileBytes: number;
  }) {
    this.#store = deps.store;
    this.#storage = deps.storage;
    this.#packages = deps.packages;
    this.#access = deps.access;
    this.#maxFileBytes = deps.maxFileBytes;
  }

  /**
   * Stores a deployed file (a file of the same name is replaced, as Maven redeploys metadata),
   * creating its package with the first one; a checksum upload is compared with the stored
   * file's digest instead (ConflictError when they differ).
   */
  async upload(project: ProjectAccess, caller: Caller, options: { target: MavenTarget; body: Readable }): Promise<void> {
    const { target } = options;
    const existing = await this.#store.findVersion({
      projectId: project.id,
      packageType: 'maven',
      name: target.name,
      version: target.version,
    });
    if (target.checksum) {
      const file = existing && (await this.#store.findFile({ packageId: existing.id, fileName: target.fileName }));
      if (!file) throw new NotFoundError('Package');
      const digest = await text(options.body, MAX_CHECKSUM_BYTES);
      if (digest.toLowerCase() !== file[CHECKSUM_EXTENSIONS[target.checksum]])
        throw new ConflictError(`${target.checksum} does not match the file`);
      return;
    }
    const staged = await this.#storage.stage(options.body, { maxBytes: this.#maxFileBytes });
    if (staged.size === 0) {
      await staged.discard();
      throw new InputError('file is missing');
    }
    await this.#packages.addFile({
      project,
      packageType: 'maven',
      name: target.name,
      version: target.version,
      status: target.version === null ? 'hidden' : undefined,
      file: {
        fileName: target.fileName,
        size: staged.size,
        fileMd5: staged.md5,
        fileSha1: staged.sha1,
        fileSha256: staged.sha256,
        storagePath: await staged.commit(),
      },
      replace: true,
      caller,
    });
  }

  async download(project: ProjectAccess, target: MavenTarget): Promise<MavenDownload> {
    const item = await this.#store.findVersion({ projectId: project.id, packageType: 'maven', name: target.name, version: target.version });
    const file =
      item && item.status !== 'processing' ? await this.#store.findFile({ packageId: item.id, fileName: target.fileName }) : null;
    if (!file) throw new NotFoundError('Package');
    if (target.checksum) return { kind: 'checksum', digest: file[CHECKSUM_EXTENSIONS[target.checksum]] };
    return { kind: 'file', size: file.size, stream: await this.#storage.read(file.storagePath) };
  }

  /**
   * The project a group or instance-level read finds: the latest to hold the package among those
   * the caller may read (in the group's projects when `groupId` is given).
   */
  async projectHolding(options: { target: MavenTarget; caller: Caller; groupId?: number }): Promise<ProjectAccess> {
    const projectIds =
      options.groupId === undefined ? undefined : await this.#store.projectsInGroup({ groupId: options.groupId, includeSubgroups: true });
    const candidates = await this.#store.projectsHolding({
      packageType: 'maven',
      name: options.target.name,
      version: options.target.version,
      ...(projectIds ? { projectIds } : {}),
    });
    for (const projectId of candidates) {
      const project = await this.#access.project({ idOrPath: String(projectId), caller: options.caller }).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      if (project && callerMayOnPackages(options.caller, project, 'read')) return project;
    }
    throw new NotFoundError('Package');
  }
}
