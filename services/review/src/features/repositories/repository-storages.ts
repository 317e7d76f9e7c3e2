import { createHash, randomInt } from 'node:crypto';
import path from 'node:path';

/** Where repositories live: named storages (`REPOSITORY_STORAGES`), each a directory. */
export class RepositoryStorages {
  readonly #directories: Record<string, string>;

  constructor(directories: Record<string, string>) {
    if (!directories.default) throw new Error('the repository storages need a "default" storage');
    this.#directories = directories;
  }

  /** The storage new repositories are created on. */
  get defaultStorage(): string {
    return 'default';
  }

  names(): string[] {
    return Object.keys(this.#directories);
  }

  has(storage: string): boolean {
    return Object.hasOwn(this.#directories, storage);
  }

  /**
   * A storage drawn at random in proportion to `weights` (the `repository_storages_weighted`
   * setting), among the configured storages weighing more than 0; `default` when none does.
   */
  pick(weights: Record<string, number>, random: (limit: number) => number = randomInt): string {
    const candidates = Object.entries(weights).filter(([name, weight]) => weight > 0 && this.has(name));
    const total = candidates.reduce((sum, [, weight]) => sum + weight, 0);
    if (total === 0) return this.defaultStorage;
    let drawn = random(total);
    for (const [name, weight] of candidates) {
      if (drawn < weight) return name;
      drawn -= weight;
    }
    return this.defaultStorage;
  }

  directoryOf(storage: string): string {
    const directory = this.#directories[storage];
    if (!directory) throw new Error(`unknown repository storage "${storage}"`);
    return directory;
  }

  /** The absolute path of a repository. */
  pathOf(repository: { storage: string; diskPath: string }): string {
    return path.join(this.directoryOf(repository.storage), repository.diskPath);
  }
}

/**
 * GitLab's hashed layout, `@hashed/ab/cd/<sha256 of the project id>.git`: a project keeps its
 * repository's place when it is renamed or transferred, and no directory grows too large.
 */
export function hashedDiskPath(projectId: number): string {
  const hash = createHash('sha256').update(String(projectId)).digest('hex');
  return `@hashed/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}.git`;
}
