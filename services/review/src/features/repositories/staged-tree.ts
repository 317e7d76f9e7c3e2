/**
 * A tree being edited in a temporary index of a bare repository: how the API writes commits
 * without a work tree. The index file lives in a directory of its own, so that concurrent writes
 * never share one; `close()` removes it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runGit } from './git-command.ts';
import { ZERO_SHA, type GitRepository } from './git-repository.ts';

/** A file of the index: its mode (`100644`, `100755`, `120000`, `160000`) and object id. */
export interface StagedEntry {
  path: string;
  mode: string;
  id: string;
}

export class StagedTree {
  readonly #repository: GitRepository;
  readonly #directory: string;

  private constructor(repository: GitRepository, directory: string) {
    this.#repository = repository;
    this.#directory = directory;
  }

  /** An index holding `base`'s tree (a commit or tree id), or nothing when `base` is null. */
  static async open(repository: GitRepository, base: string | null): Promise<StagedTree> {
    const staged = new StagedTree(repository, await mkdtemp(path.join(tmpdir(), 'staged-tree-')));
    try {
      await staged.#git(base ? ['read-tree', base] : ['read-tree', '--empty']);
    } catch (error) {
      await staged.close();
      throw error;
    }
    return staged;
  }

  #git(args: string[], input?: string) {
    const env = { GIT_INDEX_FILE: path.join(this.#directory, 'index') };
    return runGit(['--git-dir', this.#repository.path, ...args], { env, ...(input === undefined ? {} : { input }) });
  }

  /** The files at `filePath`: the file itself, or every file under it when it is a directory. */
  async entriesAt(filePath: string): Promise<StagedEntry[]> {
    const { stdout } = await this.#git(['ls-files', '-z', '--stage', '--', `:(literal)${filePath}`]);
    return stdout
      .split('\0')
      .filter(Boolean)
      .map((record) => {
        const tab = record.indexOf('\t');
        const [mode = '', id = ''] = record.slice(0, tab).split(' ');
        return { path: record.slice(tab + 1), mode, id };
      });
  }

  /** The file at exactly `filePath`, or null. */
  async fileAt(filePath: string): Promise<StagedEntry | null> {
    return (await this.entriesAt(filePath)).find((entry) => entry.path === filePath) ?? null;
  }

  /** Whether `filePath` is a directory of the index (some file lies under it). */
  async isDirectory(filePath: string): Promise<boolean> {
    return (await this.entriesAt(filePath)).some((entry) => entry.path.startsWith(`${filePath}/`));
  }

  /** Puts the object `id` at `filePath` with `mode`, replacing what was there. */
  async put(entry: StagedEntry): Promise<void> {
    await this.#git(['update-index', '-z', '--index-info'], `${entry.mode} ${entry.id}\t${entry.path}\0`);
  }

  async remove(filePath: string): Promise<void> {
    // Mode 0 removes the entry (`--force-remove` would want a work tree).
    await this.#git(['update-index', '-z', '--index-info'], `0 ${ZERO_SHA}\t${filePath}\0`);
  }

  /** Writes the index as a tree object and answers its id. */
  async writeTree(): Promise<string> {
    return (await this.#git(['write-tree'])).stdout.trim();
  }

  async close(): Promise<void> {
    await rm(this.#directory, { recursive: true, force: true });
  }
}
