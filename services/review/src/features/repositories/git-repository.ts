/** A bare git repository on disk, read and changed through the git CLI. */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { runGit } from './git-command.ts';

export const ZERO_SHA = '0000000000000000000000000000000000000000';
/** Field separator of `git log` formats (for-each-ref spells it `%00`). */
const FIELD = '%x00';

export interface GitCommit {
  id: string;
  parentIds: string[];
  authorName: string;
  authorEmail: string;
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
  /** The whole message as written, its final newline included (as GitLab shows it). */
  message: string;
}

export interface GitBranch {
  name: string;
  commit: GitCommit;
}

export interface DiffStats {
  additions: number;
  deletions: number;
}

const COMMIT_FORMAT = ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join(FIELD);

/** A commit record of `git show` or `for-each-ref`: its fields separated by NUL, the message last. */
function parseCommit(record: string): GitCommit {
  const [
    id = '',
    parents = '',
    authorName = '',
    authorEmail = '',
    authoredDate = '',
    committerName = '',
    committerEmail = '',
    committedDate = '',
    message = '',
  ] = record.split('\0');
  return {
    id,
    parentIds: parents.split(' ').filter(Boolean),
    authorName,
    authorEmail,
    authoredDate,
    committerName,
    committerEmail,
    committedDate,
    message,
  };
}

export class GitRepository {
  readonly path: string;

  constructor(directory: string) {
    this.path = directory;
  }

  /** Creates the bare repository when missing; running it again changes nothing. */
  async create(initialBranch: string): Promise<void> {
    await mkdir(path.dirname(this.path), { recursive: true });
    await runGit(['init', '--quiet', '--bare', `--initial-branch=${initialBranch}`, this.path]);
  }

  async remove(): Promise<void> {
    await rm(this.path, { recursive: true, force: true });
  }

  #git(args: string[], allowedExitCodes?: number[]) {
    return runGit(['--git-dir', this.path, ...args], allowedExitCodes ? { allowedExitCodes } : {});
  }

  /** Every branch and tag with the commit it points at: what a push is compared against. */
  async refs(): Promise<Map<string, string>> {
    const { stdout } = await this.#git(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/', 'refs/tags/']);
    return new Map(
      stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [ref = '', sha = ''] = line.split(' ');
          return [ref, sha] as const;
        }),
    );
  }

  /** The branch HEAD names, whether or not it exists yet. */
  async headBranch(): Promise<string> {
    const { stdout } = await this.#git(['symbolic-ref', '--short', 'HEAD']);
    return stdout.trim();
  }

  async setHeadBranch(branch: string): Promise<void> {
    await this.#git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
  }

  /** Branches with their head commits, by name. */
  async branches(): Promise<GitBranch[]> {
    const format = [
      '%(refname:strip=2)',
      '%(objectname)',
      '%(parent)',
      '%(authorname)',
      '%(authoremail:trim)',
      '%(authordate:iso-strict)',
      '%(committername)',
      '%(committeremail:trim)',
      '%(committerdate:iso-strict)',
      '%(contents)',
    ].join('%00');
    // Each record ends with RS (0x1e) and a newline: messages hold newlines of their own.
    const { stdout } = await this.#git(['for-each-ref', `--format=${format}%1e`, 'refs/heads/']);
    return stdout
      .split('\x1e\n')
      .filter((record) => record.length > 0)
      .map((record) => {
        const at = record.indexOf('\0');
        return { name: record.slice(0, at), commit: parseCommit(record.slice(at + 1)) };
      });
  }

  /** The commit a branch, tag or sha names; null when it names none. */
  async resolveCommit(revision: string): Promise<string | null> {
    const { stdout, exitCode } = await this.#git(
      ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`],
      [1, 128],
    );
    return exitCode === 0 ? stdout.trim() : null;
  }

  async commit(sha: string): Promise<GitCommit> {
    // `format:` puts no newline after the record: the message stays as it was written.
    const { stdout } = await this.#git(['show', '--no-patch', `--format=format:${COMMIT_FORMAT}`, '--end-of-options', sha]);
    return parseCommit(stdout);
  }

  /** Lines added and removed by a commit, against its first parent (everything, for a root commit). */
  async diffStats(commit: GitCommit): Promise<DiffStats> {
    const [parent] = commit.parentIds;
    const args = parent
      ? ['diff', '--numstat', parent, commit.id]
      : ['diff-tree', '--root', '-r', '--numstat', '--no-commit-id', commit.id];
    const { stdout } = await this.#git(args);
    let additions = 0;
    let deletions = 0;
    for (const line of stdout.split('\n').filter(Boolean)) {
      // Binary files count "-" lines: nothing, as GitLab counts them.
      const [added = '', deleted = ''] = line.split('\t');
      additions += Number(added) || 0;
      deletions += Number(deleted) || 0;
    }
    return { additions, deletions };
  }

  /** How many commits `head` has that none of `excluded` has, and the subjects of the newest `limit` of them. */
  async newCommits(options: { head: string; excluded: string[]; limit: number }): Promise<{ count: number; titles: string[] }> {
    const range = [options.head, ...options.excluded.map((sha) => `^${sha}`)];
    const [{ stdout: count }, { stdout: titles }] = await Promise.all([
      this.#git(['rev-list', '--count', ...range]),
      this.#git(['log', `--max-count=${options.limit}`, '--format=%s', ...range]),
    ]);
    return { count: Number(count.trim()), titles: titles.split('\n').filter(Boolean) };
  }

  /** Whether `ancestor` is reachable from `descendant`. */
  async isAncestor(ancestor: string, descendant: string): Promise<boolean> {
    const { exitCode } = await this.#git(['merge-base', '--is-ancestor', ancestor, descendant], [1]);
    return exitCode === 0;
  }

  /** Creates a branch at `sha`; false when one of that name exists already. */
  async createBranch(name: string, sha: string): Promise<boolean> {
    const { exitCode } = await this.#git(['update-ref', '--create-reflog', `refs/heads/${name}`, sha, ZERO_SHA], [128]);
    return exitCode === 0;
  }
}

/** Whether git accepts `name` as a branch name. */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (name.startsWith('-')) return false;
  const { exitCode } = await runGit(['check-ref-format', '--branch', name], { allowedExitCodes: [1, 128] });
  return exitCode === 0;
}
