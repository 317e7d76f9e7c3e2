/** A bare git repository on disk, read and changed through the git CLI. */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { runGit, streamCommand, streamGit } from './git-command.ts';

export const ZERO_SHA = '0000000000000000000000000000000000000000';
/** The tree with nothing in it: what a root commit is compared against. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Bounds of a diff: GitLab's `diff_max_files` and `diff_max_patch_bytes` defaults. */
export interface DiffLimits {
  maxFiles: number;
  maxPatchBytes: number;
}
export const DEFAULT_DIFF_LIMITS: DiffLimits = { maxFiles: 1000, maxPatchBytes: 204_800 };
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

/** A tag: `target` is its tag object when annotated (then `message` and `createdAt` are set), its commit otherwise. */
export interface GitTag {
  name: string;
  target: string;
  commitId: string;
  message: string | null;
  createdAt: string | null;
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
  /** Set when the file's patch exceeded the bound: `diff` is then empty, as GitLab sends it. */
  tooLarge: boolean;
  diff: string;
}

/** An entry of a tree, as GitLab's tree API lists it. */
export interface TreeEntry {
  id: string;
  name: string;
  type: 'blob' | 'tree' | 'commit';
  path: string;
  mode: string;
}

/** A blob found at a path: its entry and its size in bytes. */
export interface BlobEntry extends TreeEntry {
  size: number;
}

/** Which refs to list, as GitLab's `type` names them. */
export type RefKind = 'branch' | 'tag';

/** The formats `git archive` writes itself; bzip2 is git's tar piped through `bzip2`. */
export type ArchiveFormat = 'tar' | 'tar.gz' | 'zip' | 'tar.bz2';

/** What `log` selects, as GitLab's commit list takes it. */
export interface LogQuery {
  /** A branch, tag, sha or range; ignored with `all`. */
  revision?: string;
  all?: boolean;
  path?: string;
  since?: Date;
  until?: Date;
  author?: string;
  firstParent?: boolean;
  topoOrder?: boolean;
  skip: number;
  maxCount: number;
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

/** A commit message's subject, as git's `%s` gives it: its first paragraph, its lines joined by spaces. */
export function commitSubject(message: string): string {
  const paragraph: string[] = [];
  for (const line of message.split('\n')) {
    if (line.trim() === '') {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line.trim());
  }
  return paragraph.join(' ');
}

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
  readonly #diffLimits: () => DiffLimits;

  /** `diffLimits` bounds the diffs not given bounds of their own (the instance's settings; GitLab's defaults without). */
  constructor(directory: string, options: { diffLimits?: () => DiffLimits } = {}) {
    this.path = directory;
    this.#diffLimits = options.diffLimits ?? (() => DEFAULT_DIFF_LIMITS);
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

  /**
   * Every tag naming a commit: its object (the tag object of an annotated tag, the commit of a
   * lightweight one), the commit, and an annotated tag's message and date.
   */
  async tags(): Promise<GitTag[]> {
    const format = [
      '%(refname:strip=2)',
      '%(objectname)',
      '%(objecttype)',
      '%(*objectname)',
      '%(*objecttype)',
      '%(taggerdate:iso-strict)',
      '%(contents)',
    ];
    const { stdout } = await this.#git(['for-each-ref', `--format=${format.join('%00')}%1e`, 'refs/tags/']);
    return stdout
      .split('\x1e\n')
      .filter((record) => record.length > 0)
      .flatMap((record) => {
        const [name = '', target = '', type = '', peeled = '', peeledType = '', date = '', ...message] = record.split('\0');
        const annotated = type === 'tag';
        if (annotated ? peeledType !== 'commit' : type !== 'commit') return [];
        return [
          {
            name,
            target,
            commitId: annotated ? peeled : target,
            message: annotated ? message.join('\0') : null,
            createdAt: annotated ? date : null,
          },
        ];
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

  /** How many commits `head` has that none of `excluded` has. */
  async commitCount(options: { head: string; excluded: string[] }): Promise<number> {
    const range = [options.head, ...options.excluded.map((sha) => `^${sha}`)];
    const { stdout } = await this.#git(['rev-list', '--count', '--end-of-options', ...range]);
    return Number(stdout.trim());
  }

  /**
   * The newest `limit` commits `head` has that none of `excluded` has, newest first, each with the
   * paths it added, modified and removed from its first parent (a rename as a removal and an addition).
   */
  async newCommitsWithChanges(options: {
    head: string;
    excluded: string[];
    limit: number;
  }): Promise<Array<GitCommit & { added: string[]; modified: string[]; removed: string[] }>> {
    const range = [options.head, ...options.excluded.map((sha) => `^${sha}`)];
    const { stdout } = await this.#git([
      'log',
      `--max-count=${options.limit}`,
      `--format=tformat:${COMMIT_FORMAT}%x1e`,
      '--end-of-options',
      ...range,
    ]);
    const commits = stdout
      .split('\x1e\n')
      .filter((record) => record.length > 0)
      .map(parseCommit);
    return Promise.all(
      commits.map(async (commit) => {
        const [parent] = commit.parentIds;
        const { stdout: changes } = await this.#git([
          'diff-tree',
          '-r',
          '--no-commit-id',
          '--no-renames',
          '--name-status',
          '-z',
          ...(parent ? [parent, commit.id] : ['--root', commit.id]),
        ]);
        const fields = changes.split('\0').filter((field) => field.length > 0);
        const changed = { added: [] as string[], modified: [] as string[], removed: [] as string[] };
        for (let index = 0; index + 1 < fields.length; index += 2) {
          const [status, file] = [fields[index], fields[index + 1] ?? ''];
          if (status === 'A') changed.added.push(file);
          else if (status === 'D') changed.removed.push(file);
          else changed.modified.push(file);
        }
        return { ...commit, ...changed };
      }),
    );
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

  /**
   * Applies the change from `base` to `theirs` onto `ours` (commits or trees) without a work tree:
   * what a cherry-pick (base: the commit's parent) or a revert (the commit and its parent swapped)
   * computes. git 2.39's merge-tree finds its own merge base, so both sides are first written as
   * children of one commit holding `base`'s tree; those commits stay unreferenced.
   */
  async applyChange(options: { base: string; ours: string; theirs: string }): Promise<TrialMerge> {
    const author = { name: 'review', email: 'review@localhost' };
    const root = await this.commitTree({ tree: await this.treeOf(options.base), parents: [], message: 'base', author });
    const side = async (revision: string) =>
      this.commitTree({ tree: await this.treeOf(revision), parents: [root], message: 'side', author });
    return this.trialMerge(await side(options.ours), await side(options.theirs));
  }

  async treeOf(commit: string): Promise<string> {
    return (await this.#git(['rev-parse', '--verify', `${commit}^{tree}`])).stdout.trim();
  }

  /** Writes a commit of `tree` with `parents`, authored by `author` and committed by `committer` (the author unless given) now. */
  async commitTree(options: {
    tree: string;
    parents: string[];
    message: string;
    author: Signature;
    committer?: Signature;
  }): Promise<string> {
    const committer = options.committer ?? options.author;
    const env = {
      GIT_AUTHOR_NAME: options.author.name,
      GIT_AUTHOR_EMAIL: options.author.email,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
    };
    const parents = options.parents.flatMap((parent) => ['-p', parent]);
    // From standard input, the message is kept as given; `-m` would end it with a newline, which GitLab's commits do not have.
    const { stdout } = await runGit(['--git-dir', this.path, 'commit-tree', options.tree, ...parents, '-F', '-'], {
      env,
      input: options.message,
    });
    return stdout.trim();
  }

  /** Writes `content` into the object store as a blob, streamed into git, and answers its id. */
  async writeBlob(content: Readable): Promise<string> {
    let id = '';
    for await (const chunk of streamCommand('git', ['--git-dir', this.path, 'hash-object', '-w', '--stdin'], { stdin: content }))
      id += String(chunk);
    return id.trim();
  }

  /** Writes an annotated tag object naming `commit`, by `tagger` now, and answers its id (no ref moves). */
  async writeTag(options: { name: string; commit: string; message: string; tagger: Signature }): Promise<string> {
    const seconds = Math.floor(Date.now() / 1000);
    const body = [
      `object ${options.commit}`,
      'type commit',
      `tag ${options.name}`,
      `tagger ${options.tagger.name} <${options.tagger.email}> ${seconds} +0000`,
      '',
      // As written, without the newline git's own tag command would add (as GitLab writes tags).
      options.message,
    ].join('\n');
    return (await runGit(['--git-dir', this.path, 'mktag'], { input: body })).stdout.trim();
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

  /** Several commits by id, in the order given. */
  async commitsByIds(ids: string[]): Promise<GitCommit[]> {
    if (ids.length === 0) return [];
    const { stdout } = await this.#git(['log', '--no-walk=unsorted', `--format=tformat:${COMMIT_FORMAT}%x1e`, '--end-of-options', ...ids]);
    return stdout
      .split('\x1e\n')
      .filter((record) => record.length > 0)
      .map(parseCommit);
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

  /**
   * The files that differ between two commits, renames found, with GitLab's per-file diff text,
   * streamed from git so that a huge change costs no more than its bounds: at most `maxFiles`
   * files, and a file whose patch exceeds `maxPatchBytes` comes without it (`tooLarge`).
   */
  async diff(base: string, head: string, limits: DiffLimits = this.#diffLimits()): Promise<FileDiff[]> {
    const unquoted = ['-c', 'core.quotePath=false'];
    const [entries, texts] = await Promise.all([
      this.#rawDiff([...unquoted, 'diff', '--raw', '-z', '-M', '--no-abbrev', base, head], limits.maxFiles),
      patchTexts(
        streamGit(['--git-dir', this.path, ...unquoted, 'diff', '-M', '--no-color', '--no-ext-diff', '--full-index', base, head]),
        limits,
      ),
    ]);
    return entries.map((entry, index) => {
      const text = texts[index];
      return { ...entry, diff: text?.tooLarge ? '' : (text?.text ?? ''), tooLarge: text?.tooLarge ?? false };
    });
  }

  /** The changes of a commit against its first parent (everything, for a root commit). */
  async commitDiff(commit: GitCommit, limits: DiffLimits = this.#diffLimits()): Promise<FileDiff[]> {
    return this.diff(commit.parentIds[0] ?? EMPTY_TREE, commit.id, limits);
  }

  async #rawDiff(args: string[], maxFiles: number): Promise<Array<Omit<FileDiff, 'diff' | 'tooLarge'>>> {
    // Each file is two or three NUL-terminated records; read only as many as the bound needs.
    const records: string[] = [];
    for await (const record of nulRecords(streamGit(['--git-dir', this.path, ...args]))) {
      records.push(record);
      if (record.startsWith(':') && records.filter((item) => item.startsWith(':')).length > maxFiles) break;
    }
    return parseRawDiff(records.join('\0')).slice(0, maxFiles);
  }

  /** What `filePath` names at `commit` (a tree entry), or null when nothing. */
  async entryAt(commit: string, filePath: string): Promise<BlobEntry | null> {
    // ls-tree takes paths literally (no glob), and `--full-tree` names entries from the root.
    const { stdout, exitCode } = await this.#git(['ls-tree', '-z', '-l', '--full-tree', commit, '--', filePath], [128]);
    if (exitCode !== 0) return null;
    const entry = stdout
      .split('\0')
      .filter(Boolean)
      .map((record) => parseTreeRecord(record, ''))
      .find((candidate) => candidate.path === filePath);
    return entry ? { ...entry, size: entry.size ?? 0 } : null;
  }

  /** The blob `sha` names: its full id and size; null for anything else. */
  async blob(sha: string): Promise<{ id: string; size: number } | null> {
    const { stdout, exitCode } = await this.#git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${sha}^{blob}`], [1, 128]);
    if (exitCode !== 0) return null;
    const id = stdout.trim();
    const { stdout: size } = await this.#git(['cat-file', '-s', id]);
    return { id, size: Number(size.trim()) };
  }

  /** A blob's bytes, streamed. */
  readBlob(blobId: string): Readable {
    return streamGit(['--git-dir', this.path, 'cat-file', 'blob', blobId]);
  }

  /** The newest commit reachable from `commit` that changed `filePath`. */
  async lastCommitIdFor(commit: string, filePath: string): Promise<string> {
    const { stdout } = await this.#git(['log', '-1', '--format=%H', commit, '--', `:(literal)${filePath}`]);
    return stdout.trim();
  }

  /** The tree at `treePath` of `commit`, or null when that path is no tree. */
  async treeAt(commit: string, treePath: string): Promise<string | null> {
    if (treePath !== '') {
      const entry = await this.entryAt(commit, treePath);
      return entry?.type === 'tree' ? entry.id : null;
    }
    const { stdout, exitCode } = await this.#git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${commit}^{tree}`], [1, 128]);
    return exitCode === 0 ? stdout.trim() : null;
  }

  /** The entries of a tree, in git's order, streamed; `under` is the tree's path, prefixed to theirs. */
  async *treeEntries(options: { tree: string; under: string; recursive: boolean }): AsyncGenerator<TreeEntry> {
    const args = ['--git-dir', this.path, 'ls-tree', '-z', ...(options.recursive ? ['-r', '-t'] : []), options.tree];
    for await (const record of nulRecords(streamGit(args))) yield parseTreeRecord(record, options.under);
  }

  /** `git blame --porcelain` of a file at a commit, lines `start` to `end` (1-based) when given; null when the file has no line `start`. */
  async blame(options: { commit: string; filePath: string; range?: { start: number; end: number } }): Promise<BlameRange[] | null> {
    const range = options.range ? ['-L', `${options.range.start},${options.range.end}`] : [];
    const { stdout, exitCode } = await this.#git(
      // `commit` is a resolved sha (blame takes no --end-of-options); the path is taken literally.
      ['--literal-pathspecs', 'blame', '--porcelain', ...range, options.commit, '--', options.filePath],
      options.range ? [128] : [],
    );
    return exitCode === 0 ? parseBlame(stdout) : null;
  }

  /** Every branch or tag whose history contains `commit`, by short name. */
  async refsContaining(commit: string, kinds: RefKind[]): Promise<Array<{ kind: RefKind; name: string }>> {
    const prefixes = kinds.map((kind) => (kind === 'branch' ? 'refs/heads/' : 'refs/tags/'));
    const { stdout } = await this.#git(['for-each-ref', '--contains', commit, '--format=%(refname)', ...prefixes]);
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((ref) =>
        ref.startsWith('refs/heads/') ? { kind: 'branch' as const, name: ref.slice(11) } : { kind: 'tag' as const, name: ref.slice(10) },
      );
  }

  /** The best common ancestor of several commits, as `git merge-base` takes them; null when there is none. */
  async mergeBaseOf(commits: string[]): Promise<string | null> {
    const { stdout, exitCode } = await this.#git(['merge-base', ...commits], [1]);
    return exitCode === 0 ? stdout.trim() : null;
  }

  /**
   * The commits `log` selects, newest first (GitLab's commit list): the range of `revision` (or of
   * every ref), filtered by path, dates and author, `skip` then at most `maxCount` of them.
   */
  async logCommits(query: LogQuery): Promise<GitCommit[]> {
    const args = [
      'log',
      `--format=tformat:${COMMIT_FORMAT}%x1e`,
      `--skip=${query.skip}`,
      `--max-count=${query.maxCount}`,
      ...(query.since ? [`--since=${query.since.toISOString()}`] : []),
      ...(query.until ? [`--until=${query.until.toISOString()}`] : []),
      ...(query.author ? [`--author=${query.author}`] : []),
      ...(query.firstParent ? ['--first-parent'] : []),
      ...(query.topoOrder ? ['--topo-order'] : []),
      ...(query.all ? ['--all'] : ['--end-of-options', query.revision ?? 'HEAD']),
      '--',
      ...(query.path ? [`:(literal)${query.path}`] : []),
    ];
    const { stdout, exitCode } = await this.#git(args, [128]);
    if (exitCode !== 0) return [];
    return stdout
      .split('\x1e\n')
      .filter((record) => record.length > 0)
      .map(parseCommit);
  }

  /** The trailers of each commit (`Key: value` lines at the end of its message), repeated keys kept in order. */
  async trailers(commits: string[]): Promise<Map<string, Array<[string, string]>>> {
    if (commits.length === 0) return new Map();
    const { stdout } = await this.#git([
      'show',
      '--no-patch',
      '--no-walk=unsorted',
      `--format=tformat:%H%x00%(trailers:unfold,only,key_value_separator=%x1f,separator=%x00)%x1e`,
      ...commits,
    ]);
    const result = new Map<string, Array<[string, string]>>();
    for (const record of stdout.split('\x1e\n').filter(Boolean)) {
      const [id = '', ...pairs] = record.split('\0');
      result.set(
        id,
        pairs.filter(Boolean).map((pair) => {
          const at = pair.indexOf('\x1f');
          return [pair.slice(0, at), pair.slice(at + 1)] as [string, string];
        }),
      );
    }
    return result;
  }

  /**
   * `git archive` of `commit` (only `subPath` when given), every entry under `prefix/`, streamed
   * as it is written; destroying the stream stops git.
   */
  archive(options: { commit: string; format: ArchiveFormat; prefix: string; subPath?: string }): Readable {
    const gitFormat = options.format === 'tar.bz2' ? 'tar' : options.format;
    // `commit` is a resolved sha (archive takes no --end-of-options); the path is taken literally.
    const archive = streamGit([
      '--git-dir',
      this.path,
      '--literal-pathspecs',
      'archive',
      `--format=${gitFormat}`,
      `--prefix=${options.prefix}/`,
      options.commit,
      ...(options.subPath ? ['--', options.subPath] : []),
    ]);
    return options.format === 'tar.bz2' ? streamCommand('bzip2', ['-c'], { stdin: archive }) : archive;
  }
}

/** `git diff --raw -z` entries: modes, status and paths, in the order the patch lists them. */
export function parseRawDiff(raw: string): Array<Omit<FileDiff, 'diff' | 'tooLarge'>> {
  const tokens = raw.split('\0');
  const entries: Array<Omit<FileDiff, 'diff' | 'tooLarge'>> = [];
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

/** NUL-terminated records of a stream (`-z` output), as they arrive. */
export async function* nulRecords(stream: Readable): AsyncGenerator<string> {
  let partial = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream as AsyncIterable<string>) {
    const records = (partial + chunk).split('\0');
    partial = records.pop() ?? '';
    yield* records;
  }
  if (partial) yield partial;
}

/** An `ls-tree` record (`<mode> <type> <id>[ <size>]\t<path>`), its path under `under`. */
function parseTreeRecord(record: string, under: string): TreeEntry & { size: number | null } {
  const tab = record.indexOf('\t');
  const [mode = '', type = '', id = '', size = '-'] = record.slice(0, tab).split(/ +/);
  const relative = record.slice(tab + 1);
  return {
    id,
    name: relative.slice(relative.lastIndexOf('/') + 1),
    type: type as TreeEntry['type'],
    path: under ? `${under}/${relative}` : relative,
    mode,
    size: size === '-' ? null : Number(size),
  };
}

/** One file's text in a patch: from its first hunk on (or git's "Binary files ... differ" line). */
export interface PatchText {
  text: string;
  tooLarge: boolean;
}

/**
 * Each file's part of a streamed patch, from its first hunk on: at most `maxFiles` files (git is
 * stopped after them), a file past `maxPatchBytes` kept only as `tooLarge`, so that memory stays
 * bounded whatever the change (a minified megabyte on one line included).
 */
export async function patchTexts(patch: Readable, limits: DiffLimits): Promise<PatchText[]> {
  const files: Array<{ lines: string[]; bytes: number; inHunks: boolean; tooLarge: boolean }> = [];
  const take = (line: string, overflowed: boolean) => {
    if (!overflowed && line.startsWith('diff --git ')) {
      files.push({ lines: [], bytes: 0, inHunks: false, tooLarge: false });
      return;
    }
    const file = files.at(-1);
    if (!file || file.tooLarge) return;
    if (!file.inHunks) {
      if (line.startsWith('@@')) file.inHunks = true;
      else {
        if (line.startsWith('Binary files ')) file.lines.push(line);
        return;
      }
    }
    file.bytes += Buffer.byteLength(line) + 1;
    if (overflowed || file.bytes > limits.maxPatchBytes) {
      file.tooLarge = true;
      file.lines = [];
    } else file.lines.push(line);
  };
  let partial = '';
  let overflowed = false;
  patch.setEncoding('utf8');
  reading: for await (const chunk of patch as AsyncIterable<string>) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', start)) {
      take(partial + chunk.slice(start, end), overflowed);
      partial = '';
      overflowed = false;
      start = end + 1;
      // Leaving the loop destroys the stream, which stops git.
      if (files.length > limits.maxFiles) break reading;
    }
    partial += chunk.slice(start);
    if (partial.length > limits.maxPatchBytes) {
      // A line longer than any patch may be: only its start is kept, to tell it from a file's header.
      partial = partial.slice(0, 16);
      overflowed = true;
    }
  }
  if (partial && files.length <= limits.maxFiles) take(partial, overflowed);
  return files.slice(0, limits.maxFiles).map((file) => {
    if (file.tooLarge) return { text: '', tooLarge: true };
    if (!file.inHunks) return { text: file.lines.map((line) => `${line}\n`).join(''), tooLarge: false };
    const body = [...file.lines];
    while (body.length > 0 && body.at(-1) === '') body.pop();
    return { text: `${body.join('\n')}\n`, tooLarge: false };
  });
}

/** Consecutive lines of a file last changed by one commit, as `git blame` finds them. */
export interface BlameRange {
  commitId: string;
  lines: string[];
}

/** `git blame --porcelain` output as ranges: each line's commit header, then the line after a tab. */
export function parseBlame(porcelain: string): BlameRange[] {
  const ranges: BlameRange[] = [];
  let commitId = '';
  for (const line of porcelain.split('\n')) {
    if (line.startsWith('\t')) {
      const last = ranges.at(-1);
      if (last?.commitId === commitId) last.lines.push(line.slice(1));
      else ranges.push({ commitId, lines: [line.slice(1)] });
      continue;
    }
    const header = /^([0-9a-f]{40,64}) \d+ \d+/.exec(line);
    if (header) commitId = header[1] ?? '';
  }
  return ranges;
}

/** Whether git accepts `name` as a branch name. */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (name.startsWith('-')) return false;
  const { exitCode } = await runGit(['check-ref-format', '--branch', name], { allowedExitCodes: [1, 128] });
  return exitCode === 0;
}
