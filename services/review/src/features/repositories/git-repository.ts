/** A bare git repository on disk, read and changed through the git CLI. */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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

/** One file a diff changes, as GitLab describes it; `diff` starts at the first hunk (`@@`). */
export interface FileDiff {
  oldPath: string;
  newPath: string;
  /** "0" for a file that did not exist on that side. */
  aMode: string;
  bMode: string;
  newFile: boolean;
  renamedFile: boolean;
  deletedFile: boolean;
  diff: string;
}

/** A trial merge: the tree it would produce, or the paths that conflict. */
export type TrialMerge = { clean: true; tree: string } | { clean: false; conflicts: string[] };

/** A rebase: the rewritten head, or the conflict that stopped it (nothing was changed then). */
export type RebaseResult = { rebased: true; head: string } | { rebased: false };

/** Who a commit written by the service is by. */
export interface Signature {
  name: string;
  email: string;
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

  #git(args: string[], allowedExitCodes?: number[], env?: Record<string, string>) {
    return runGit(['--git-dir', this.path, ...args], { ...(allowedExitCodes ? { allowedExitCodes } : {}), ...(env ? { env } : {}) });
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

  /** The shas of the commits `head` has that none of `excluded` has. */
  async commitIds(options: { head: string; excluded: string[] }): Promise<string[]> {
    const range = [options.head, ...options.excluded.map((sha) => `^${sha}`)];
    const { stdout } = await this.#git(['rev-list', '--end-of-options', ...range]);
    return stdout.split('\n').filter(Boolean);
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

  /** The best common ancestor of two commits; null when their histories are unrelated. */
  async mergeBase(first: string, second: string): Promise<string | null> {
    const { stdout, exitCode } = await this.#git(['merge-base', first, second], [1]);
    return exitCode === 0 ? stdout.trim() : null;
  }

  /** Merges `theirs` into `ours` without touching any ref or work tree (`git merge-tree --write-tree`). */
  async trialMerge(ours: string, theirs: string): Promise<TrialMerge> {
    const { stdout, exitCode } = await this.#git(
      ['merge-tree', '--write-tree', '--name-only', '--no-messages', '--allow-unrelated-histories', ours, theirs],
      [1],
    );
    const [tree = '', ...paths] = stdout.split('\n').filter(Boolean);
    return exitCode === 0 ? { clean: true, tree } : { clean: false, conflicts: [...new Set(paths)] };
  }

  async treeOf(commit: string): Promise<string> {
    return (await this.#git(['rev-parse', '--verify', `${commit}^{tree}`])).stdout.trim();
  }

  /** Writes a commit of `tree` with `parents`, authored and committed by `author` now. */
  async commitTree(options: { tree: string; parents: string[]; message: string; author: Signature }): Promise<string> {
    const env = {
      GIT_AUTHOR_NAME: options.author.name,
      GIT_AUTHOR_EMAIL: options.author.email,
      GIT_COMMITTER_NAME: options.author.name,
      GIT_COMMITTER_EMAIL: options.author.email,
    };
    const parents = options.parents.flatMap((parent) => ['-p', parent]);
    const { stdout } = await this.#git(['commit-tree', options.tree, ...parents, '-m', options.message], undefined, env);
    return stdout.trim();
  }

  /** Copies every branch and tag of `source`, and its HEAD, as a fork's repository starts. */
  async copyFrom(source: GitRepository): Promise<void> {
    await this.#git(['fetch', '--quiet', '--no-tags', source.path, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*']);
    await this.setHeadBranch(await source.headBranch());
  }

  /**
   * Fetches the commit `sha` of `source` with everything it needs into `into` (moved whatever it
   * pointed at): how a merge request from a fork brings the fork's commits into the target repository.
   */
  async fetchCommit(options: { source: GitRepository; sha: string; into: string }): Promise<void> {
    await this.#git(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', options.source.path, `+${options.sha}:${options.into}`]);
  }

  /**
   * Replays the commits of `head` that `onto` lacks on top of `onto` with `git rebase`, in a
   * temporary worktree (a bare repository has none), committed by `committer`. No ref moves: the
   * caller decides what the new head replaces. A conflict aborts and answers `rebased: false`.
   */
  async rebase(options: { head: string; onto: string; committer: Signature }): Promise<RebaseResult> {
    const worktree = await mkdtemp(path.join(tmpdir(), 'rebase-'));
    const env = { GIT_COMMITTER_NAME: options.committer.name, GIT_COMMITTER_EMAIL: options.committer.email };
    // Hooks of the repository are for pushes; a rebase on the service's behalf runs none.
    const inWorktree = (args: string[], allowedExitCodes?: number[]) =>
      runGit(['-C', worktree, '-c', 'core.hooksPath=/dev/null', ...args], { env, ...(allowedExitCodes ? { allowedExitCodes } : {}) });
    try {
      await this.#git(['worktree', 'add', '--quiet', '--detach', worktree, options.head]);
      const { exitCode } = await inWorktree(['rebase', '--quiet', '--no-autostash', options.onto], [1, 128]);
      if (exitCode !== 0) {
        await inWorktree(['rebase', '--abort'], [1, 128]);
        return { rebased: false };
      }
      return { rebased: true, head: (await inWorktree(['rev-parse', 'HEAD'])).stdout.trim() };
    } finally {
      await this.#git(['worktree', 'remove', '--force', worktree], [128]);
      await rm(worktree, { recursive: true, force: true });
      await this.#git(['worktree', 'prune']);
    }
  }

  /** Moves `ref` to `sha` if it still points at `expected` (forty zeros: if it does not exist); false otherwise. */
  async updateRef(ref: string, sha: string, expected: string): Promise<boolean> {
    const { exitCode } = await this.#git(['update-ref', '--create-reflog', ref, sha, expected], [1, 128]);
    return exitCode === 0;
  }

  async deleteRef(ref: string, expected: string): Promise<boolean> {
    const { exitCode } = await this.#git(['update-ref', '-d', ref, expected], [1, 128]);
    return exitCode === 0;
  }

  /** A file's content at a commit; null when the commit has no such file. */
  async readFile(commit: string, filePath: string): Promise<string | null> {
    const { stdout, exitCode } = await this.#git(['cat-file', 'blob', `${commit}:${filePath}`], [128]);
    return exitCode === 0 ? stdout : null;
  }

  /** Which of `paths` differ between two commits (a rename counts as both of its paths). */
  async changedPaths(base: string, head: string, paths: readonly string[]): Promise<string[]> {
    const { stdout } = await this.#git([
      'diff',
      '--name-only',
      '-z',
      '--no-renames',
      base,
      head,
      '--',
      ...paths.map((file) => `:(literal)${file}`),
    ]);
    return stdout.split('\0').filter((file) => file.length > 0);
  }

  /** The commits of `head` that none of `excluded` has, newest first. */
  async log(options: { head: string; excluded: string[] }): Promise<GitCommit[]> {
    const range = [options.head, ...options.excluded.map((sha) => `^${sha}`)];
    const { stdout } = await this.#git(['log', `--format=tformat:${COMMIT_FORMAT}%x1e`, '--end-of-options', ...range]);
    return stdout
      .split('\x1e\n')
      .filter((record) => record.length > 0)
      .map(parseCommit);
  }

  /** The files that differ between two commits, renames found, with GitLab's per-file diff text. */
  async diff(base: string, head: string): Promise<FileDiff[]> {
    const unquoted = ['-c', 'core.quotePath=false'];
    const [{ stdout: raw }, { stdout: patch }] = await Promise.all([
      this.#git([...unquoted, 'diff', '--raw', '-z', '-M', '--no-abbrev', base, head]),
      this.#git([...unquoted, 'diff', '-M', '--no-color', '--no-ext-diff', '--full-index', base, head]),
    ]);
    const texts = splitPatch(patch);
    return parseRawDiff(raw).map((entry, index) => ({ ...entry, diff: texts[index] ?? '' }));
  }
}

/** `git diff --raw -z` entries: modes, status and paths, in the order the patch lists them. */
export function parseRawDiff(raw: string): Array<Omit<FileDiff, 'diff'>> {
  const tokens = raw.split('\0');
  const entries: Array<Omit<FileDiff, 'diff'>> = [];
  const mode = (value: string) => (/^0+$/.test(value) ? '0' : value);
  for (let index = 0; index < tokens.length; index += 1) {
    const header = tokens[index] ?? '';
    if (!header.startsWith(':')) continue;
    const [srcMode = '', dstMode = '', , , status = ''] = header.slice(1).split(' ');
    const twoPaths = status.startsWith('R') || status.startsWith('C');
    const oldPath = tokens[index + 1] ?? '';
    const newPath = twoPaths ? (tokens[index + 2] ?? '') : oldPath;
    index += twoPaths ? 2 : 1;
    entries.push({
      oldPath,
      newPath,
      aMode: mode(srcMode),
      bMode: mode(dstMode),
      newFile: status === 'A',
      renamedFile: status.startsWith('R'),
      deletedFile: status === 'D',
    });
  }
  return entries;
}

/** Each file's part of a patch, from its first hunk on (or git's "Binary files ... differ" line). */
export function splitPatch(patch: string): string[] {
  const parts: string[][] = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) parts.push([]);
    else parts.at(-1)?.push(line);
  }
  return parts.map((lines) => {
    const hunk = lines.findIndex((line) => line.startsWith('@@'));
    if (hunk < 0)
      return lines
        .filter((line) => line.startsWith('Binary files '))
        .map((line) => `${line}\n`)
        .join('');
    const body = lines.slice(hunk);
    while (body.length > 0 && body.at(-1) === '') body.pop();
    return `${body.join('\n')}\n`;
  });
}

/** Whether git accepts `name` as a branch name. */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (name.startsWith('-')) return false;
  const { exitCode } = await runGit(['check-ref-format', '--branch', name], { allowedExitCodes: [1, 128] });
  return exitCode === 0;
}
