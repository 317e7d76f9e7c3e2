/**
 * Avatars of users, groups and projects as files under the service's data directory, at the
 * paths GitLab serves them from: `/uploads/-/system/<user|group|project>/avatar/<id>/<file name>`.
 * An upload is validated (its type decided by its content), written to a temporary file before
 * the database changes, and renamed into place only once the change is committed; the file it
 * replaces is deleted then. A failed change deletes the temporary file.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FieldValidationError } from '@platform/errors';
import type { UploadedFile } from '@platform/http';

export const AVATAR_KINDS = ['user', 'group', 'project'] as const;
export type AvatarKind = (typeof AVATAR_KINDS)[number];

/** GitLab's `Avatarable::MAXIMUM_FILE_SIZE`. */
export const MAXIMUM_AVATAR_BYTES = 200 * 1024;
/** GitLab's safe image extensions, in its order, as its message lists them. */
const SAFE_IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp'];
/** The types file-type reports for those images, with the extension a stored file gets when its name has none of them. */
const IMAGE_TYPES: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
  'image/webp': 'webp',
};

export const AVATAR_MESSAGES = {
  type: `file format is not supported. Please try one of the following supported formats: ${SAFE_IMAGE_EXTENSIONS.join(', ')}`,
  size: 'is too big (should be at most 200 KiB)',
};

const URL_PREFIX = '/uploads/-/system';
const URL_PATTERN = /^\/uploads\/-\/system\/(user|group|project)\/avatar\/(\d+)\/([A-Za-z0-9_-][A-Za-z0-9._-]*)$/;

/** Whatever has an avatar: its id, and the path of its avatar, null for none. */
export interface AvatarOwner {
  id: number;
  avatarUrl?: string | null;
}

/** A file name safe in a path and a URL, with the extension its content calls for. */
/** The file's type from its content; file-type and its readers are loaded on the first avatar written or read, not at start. */
async function detectType(content: Uint8Array) {
  const { fileTypeFromBuffer } = await import('file-type');
  return fileTypeFromBuffer(content);
}

function storedName(filename: string, extension: string): string {
  const base = path
    .basename(filename)
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '');
  const ext = path.extname(base).slice(1).toLowerCase();
  const fitting = ext === extension || (extension === 'jpg' && ext === 'jpeg') || (extension === 'tiff' && ext === 'tif');
  const stem = (fitting ? base.slice(0, base.length - ext.length - 1) : base.replace(/\.[^.]*$/, '')).slice(0, 100) || 'avatar';
  return `${stem}.${fitting ? ext : extension}`;
}

/**
 * One requested change of an avatar: a new file, or its removal (`avatar=` empty). `applyTo`
 * points the owner at the new path inside the transaction; `settle` and `discard` finish the
 * files after it.
 */
export class AvatarChange {
  readonly #storage: AvatarStorage;
  readonly #upload: { temporary: string; name: string; type: string } | null;
  #placed: { kind: AvatarKind; id: number; url: string } | null = null;
  #replaced: string | null = null;

  constructor(storage: AvatarStorage, upload: { temporary: string; name: string; type: string } | null) {
    this.#storage = storage;
    this.#upload = upload;
  }

  /** Sets the owner's avatar path (null for a removal) and answers the attribute change, for events. */
  applyTo(owner: AvatarOwner, kind: AvatarKind): { attribute: string; from: string; to: string } {
    const before = owner.avatarUrl ?? null;
    const url = this.#upload ? `${URL_PREFIX}/${kind}/avatar/${owner.id}/${this.#upload.name}` : null;
    this.#placed = this.#upload && url ? { kind, id: owner.id, url } : null;
    this.#replaced = before !== url ? before : null;
    owner.avatarUrl = url;
    return { attribute: 'avatar', from: before ?? '', to: url ?? '' };
  }

  /** After the change committed: the new file into place, the replaced one gone. */
  async settle(): Promise<void> {
    if (this.#upload && this.#placed) await this.#storage.place(this.#upload.temporary, this.#placed.url);
    else if (this.#upload) await rm(this.#upload.temporary, { force: true });
    if (this.#replaced) await this.#storage.remove(this.#replaced);
  }

  /** After the change failed: nothing of the upload stays. */
  async discard(): Promise<void> {
    if (this.#upload) await rm(this.#upload.temporary, { force: true });
  }
}

export class AvatarStorage {
  readonly #directory: string;

  /** `directory` holds `uploads/`; temporary files are written beside the avatars, on the same file system. */
  constructor(options: { directory: string }) {
    this.#directory = options.directory;
  }

  /**
   * Checks and stages `avatar` as GitLab's `avatar` parameter gives it: a file, or an empty value
   * that removes the current avatar; undefined when not given. Refuses other types and sizes with
   * GitLab's 400 `{"message": {"avatar": [...]}}`.
   */
  async prepare(avatar: UploadedFile | '' | undefined): Promise<AvatarChange | undefined> {
    if (avatar === undefined) return undefined;
    if (avatar === '') return new AvatarChange(this, null);
    if (avatar.content.length > MAXIMUM_AVATAR_BYTES) throw new FieldValidationError({ avatar: [AVATAR_MESSAGES.size] });
    const detected = await detectType(avatar.content);
    const extension = detected ? IMAGE_TYPES[detected.mime] : undefined;
    if (!detected || !extension) throw new FieldValidationError({ avatar: [AVATAR_MESSAGES.type] });
    const staging = path.join(this.#directory, 'uploads', 'tmp');
    await mkdir(staging, { recursive: true });
    const temporary = path.join(staging, randomUUID());
    await writeFile(temporary, avatar.content, { flag: 'wx' });
    return new AvatarChange(this, { temporary, name: storedName(avatar.filename, extension), type: detected.mime });
  }

  /** The file behind an avatar path with its type, or null when it is not there. */
  async read(url: string): Promise<{ content: Buffer; type: string; filename: string } | null> {
    const file = this.#fileOf(url);
    if (!file) return null;
    const content = await readFile(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!content) return null;
    const detected = await detectType(content);
    return { content, type: detected?.mime ?? 'application/octet-stream', filename: path.basename(file) };
  }

  /** Renames a staged file to where `url` serves it; atomic on the one file system. */
  async place(temporary: string, url: string): Promise<void> {
    const file = this.#fileOf(url);
    if (!file) throw new Error(`not an avatar path: ${url}`);
    await mkdir(path.dirname(file), { recursive: true });
    await rename(temporary, file);
  }

  /** Deletes the file behind an avatar path. */
  async remove(url: string): Promise<void> {
    const file = this.#fileOf(url);
    if (!file) return;
    await rm(file, { force: true });
  }

  /** Runs `change` with the staged avatar, then settles it, or discards it when `change` fails. */
  async withChange<T>(avatar: AvatarChange | undefined, change: (avatar: AvatarChange | undefined) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await change(avatar);
    } catch (error) {
      await avatar?.discard();
      throw error;
    }
    await avatar?.settle();
    return result;
  }

  #fileOf(url: string): string | null {
    const match = URL_PATTERN.exec(url);
    if (!match) return null;
    const [, kind, id, name] = match;
    return path.join(this.#directory, 'uploads', 'system', kind!, 'avatar', id!, name!);
  }
}

/** The path an uploads request names, checked against the avatar paths this storage serves. */
export function parseAvatarUrl(url: string): { kind: AvatarKind; id: number } | null {
  const match = URL_PATTERN.exec(url);
  return match ? { kind: match[1] as AvatarKind, id: Number(match[2]) } : null;
}
