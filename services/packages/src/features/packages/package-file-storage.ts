import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { InputError, NotFoundError } from '@platform/errors';

/** A file written whole to a temporary place and hashed, not yet visible under its final name. */
export interface StagedFile {
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
  /** Moves the file to its final place (an atomic rename) and answers its storage path. */
  commit(): Promise<string>;
  discard(): Promise<void>;
}

/**
 * Package files on disk: each written to `tmp/` while its digests are computed, synced, then
 * renamed into `files/` once the caller verified it, so a reader never sees half a file.
 */
export class PackageFileStorage {
  readonly #tmp: string;
  readonly #files: string;

  constructor(directory: string) {
    this.#tmp = path.join(directory, 'tmp');
    this.#files = path.join(directory, 'files');
  }

  async stage(source: Readable | Buffer, options: { maxBytes: number }): Promise<StagedFile> {
    await mkdir(this.#tmp, { recursive: true });
    const tempPath = path.join(this.#tmp, randomUUID());
    const digests = { md5: createHash('md5'), sha1: createHash('sha1'), sha256: createHash('sha256'), sha512: createHash('sha512') };
    const handle = await open(tempPath, 'wx', 0o640);
    let size = 0;
    try {
      for await (const chunk of Buffer.isBuffer(source) ? Readable.from([source]) : source) {
        const bytes = chunk as Buffer;
        size += bytes.length;
        if (size > options.maxBytes) throw new InputError(`file is too large (maximum is ${options.maxBytes} bytes)`);
        for (const digest of Object.values(digests)) digest.update(bytes);
        await handle.write(bytes);
      }
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(tempPath, { force: true });
      throw error;
    }
    await handle.close();
    const storagePath = path.join(...randomUUID().split('-').slice(0, 2), randomUUID());
    return {
      size,
      md5: digests.md5.digest('hex'),
      sha1: digests.sha1.digest('hex'),
      sha256: digests.sha256.digest('hex'),
      sha512: digests.sha512.digest('base64'),
      commit: async () => {
        const target = path.join(this.#files, storagePath);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tempPath, target);
        return storagePath;
      },
      discard: () => rm(tempPath, { force: true }),
    };
  }

  /** The stored file, opened before anything is sent: a missing one is a 404, not a broken response. */
  async read(storagePath: string): Promise<Readable> {
    try {
      const handle = await open(path.join(this.#files, storagePath), 'r');
      return handle.createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError('Package file');
      throw error;
    }
  }

  async remove(storagePath: string): Promise<void> {
    await rm(path.join(this.#files, storagePath), { force: true });
  }
}
