import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runGit } from './git-command.ts';
import { commitSubject, GitRepository, isValidBranchName, ZERO_SHA } from './git-repository.ts';

let root: string;
let bare: GitRepository;
let work: string;
const identity = ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com'];

async function commitFile(file: string, content: string, message: string): Promise<string> {
  writeFileSync(path.join(work, file), content);
  await runGit(['-C', work, 'add', file]);
  await runGit(['-C', work, ...identity, 'commit', '-q', '-m', message]);
  return (await runGit(['-C', work, 'rev-parse', 'HEAD'])).stdout.trim();
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'git-repository-'));
  bare = new GitRepository(path.join(root, '@hashed/ab/cd/project.git'));
  await bare.create('main');
  work = path.join(root, 'work');
  await runGit(['init', '-q', '--initial-branch=main', work]);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('GitRepository', () => {
  it('starts empty, HEAD naming the initial branch, and can be created again', async () => {
    await bare.create('main');
    expect(await bare.refs()).toEqual(new Map());
    expect(await bare.headBranch()).toBe('main');
    expect(await bare.branches()).toEqual([]);
  });

  it('reads branches, commits with multi-line messages, stats and new commits', async () => {
    const first = await commitFile('a.txt', 'one\ntwo\n', 'First');
    const second = await commitFile('a.txt', 'one\n2\nthree\n', 'Second\n\nBody line\nanother');
    await runGit(['-C', work, 'push', '-q', bare.path, 'main', `${first}:refs/heads/old`]);

    expect(await bare.refs()).toEqual(
      new Map([
        ['refs/heads/main', second],
        ['refs/heads/old', first],
      ]),
    );
    const branches = await bare.branches();
    expect(branches.map((branch) => [branch.name, branch.commit.id, branch.commit.message])).toEqual([
      ['main', second, 'Second\n\nBody line\nanother\n'],
      ['old', first, 'First\n'],
    ]);
    const commit = await bare.commit(second);
    expect(commit).toMatchObject({ id: second, parentIds: [first], authorName: 'Ada', authorEmail: 'ada@example.com' });
    expect(commit.message).toBe('Second\n\nBody line\nanother\n');
    expect(await bare.diffStats(commit)).toEqual({ additions: 2, deletions: 1 });
    expect(await bare.diffStats(await bare.commit(first))).toEqual({ additions: 2, deletions: 0 });
    expect(await bare.commitCount({ head: second, excluded: [first] })).toBe(1);
    expect(await bare.commitCount({ head: second, excluded: [] })).toBe(2);
    expect(await bare.isAncestor(first, second)).toBe(true);
    expect(await bare.isAncestor(second, first)).toBe(false);
  });

  it("titles a commit by its subject as git's %s does: the first paragraph, its lines joined", async () => {
    const messages = ['One line', 'Wrapped\nsubject  \n\nBody', '\n\nAfter blank lines\nand more\n\nbody\n'];
    for (const message of messages) {
      const sha = await commitFile('subject.txt', message, message);
      const [subject, body] = await Promise.all([
        runGit(['-C', work, 'log', '-1', '--format=%s', sha]),
        runGit(['-C', work, 'log', '-1', '--format=%B', sha]),
      ]);
      expect(commitSubject(body.stdout)).toBe(subject.stdout.trim());
    }
  });

  it('resolves branches and shas to commits, and nothing else', async () => {
    const main = await bare.resolveCommit('main');
    expect(main).toMatch(/^[0-9a-f]{40}$/);
    expect(await bare.resolveCommit(main?.slice(0, 10) ?? '')).toBe(main);
    expect(await bare.resolveCommit('nope')).toBeNull();
    expect(await bare.resolveCommit('--upload-pack=evil')).toBeNull();
    expect(await bare.resolveCommit(ZERO_SHA)).toBeNull();
  });

  it('creates a branch once, and moves HEAD', async () => {
    const main = (await bare.resolveCommit('main')) ?? '';
    expect(await bare.createBranch('feature/x', main)).toBe(true);
    expect(await bare.createBranch('feature/x', main)).toBe(false);
    await bare.setHeadBranch('feature/x');
    expect(await bare.headBranch()).toBe('feature/x');
  });

  it('knows a valid branch name', async () => {
    expect(await isValidBranchName('feature/ok')).toBe(true);
    expect(await isValidBranchName('bad..name')).toBe(false);
    expect(await isValidBranchName('-option')).toBe(false);
    expect(await isValidBranchName('with space')).toBe(false);
  });

  it('diffs two commits file by file as GitLab shows them: modes, new, renamed and deleted files, text from the first hunk', async () => {
    const before = await commitFile('gone.txt', 'bye\n', 'Add a file to delete');
    await runGit(['-C', work, 'mv', 'a.txt', 'renamed.txt']);
    await runGit(['-C', work, 'rm', '-q', 'gone.txt']);
    const after = await commitFile('new file.txt', 'hello\n', 'Rename, delete, add');
    await runGit(['-C', work, 'push', '-q', bare.path, 'main']);
    const diffs = await bare.diff(before, after);
    expect(diffs.map(({ diff: _diff, ...rest }) => rest)).toEqual([
      {
        oldPath: 'gone.txt',
        newPath: 'gone.txt',
        aMode: '100644',
        bMode: '0',
        newFile: false,
        renamedFile: false,
        deletedFile: true,
        tooLarge: false,
      },
      {
        oldPath: 'new file.txt',
        newPath: 'new file.txt',
        aMode: '0',
        bMode: '100644',
        newFile: true,
        renamedFile: false,
        deletedFile: false,
        tooLarge: false,
      },
      {
        oldPath: 'a.txt',
        newPath: 'renamed.txt',
        aMode: '100644',
        bMode: '100644',
        newFile: false,
        renamedFile: true,
        deletedFile: false,
        tooLarge: false,
      },
    ]);
    expect(diffs.map((diff) => diff.diff)).toEqual(['@@ -1 +0,0 @@\n-bye\n', '@@ -0,0 +1 @@\n+hello\n', '']);
  });

  it('bounds a diff: a patch past maxPatchBytes (one long line too) is only tooLarge, files past maxFiles are left out', async () => {
    const before = (await bare.resolveCommit('main')) ?? '';
    writeFileSync(path.join(work, 'long-line.txt'), `${'x'.repeat(300_000)}\n`);
    writeFileSync(path.join(work, 'many-lines.txt'), 'line\n'.repeat(50_000));
    writeFileSync(path.join(work, 'small.txt'), 'small\n');
    await runGit(['-C', work, 'add', '.']);
    await runGit(['-C', work, ...identity, 'commit', '-q', '-m', 'Large files']);
    await runGit(['-C', work, 'push', '-q', bare.path, 'main']);
    const after = (await runGit(['-C', work, 'rev-parse', 'HEAD'])).stdout.trim();

    const diffs = await bare.diff(before, after, { maxFiles: 1000, maxPatchBytes: 204_800 });
    expect(diffs.map((diff) => [diff.newPath, diff.tooLarge, diff.diff])).toEqual([
      ['long-line.txt', true, ''],
      ['many-lines.txt', true, ''],
      ['small.txt', false, '@@ -0,0 +1 @@\n+small\n'],
    ]);
    expect((await bare.diff(before, after, { maxFiles: 2, maxPatchBytes: 204_800 })).map((diff) => diff.newPath)).toEqual([
      'long-line.txt',
      'many-lines.txt',
    ]);
    const commit = await bare.commit(after);
    expect((await bare.commitDiff(commit)).map((diff) => diff.newPath)).toEqual(['long-line.txt', 'many-lines.txt', 'small.txt']);
  });

  it('merges on trial without touching refs, reports conflicts, and writes commits and refs', async () => {
    const main = (await bare.resolveCommit('main')) ?? '';
    const ours = await commitFile('renamed.txt', 'ours\n', 'Ours');
    await runGit(['-C', work, 'reset', '-q', '--hard', main]);
    const theirs = await commitFile('renamed.txt', 'theirs\n', 'Theirs');
    await runGit(['-C', work, 'reset', '-q', '--hard', main]);
    const other = await commitFile('other.txt', 'other\n', 'Other');
    await runGit([
      '-C',
      work,
      'push',
      '-q',
      bare.path,
      `${ours}:refs/heads/ours`,
      `${theirs}:refs/heads/theirs`,
      `${other}:refs/heads/other`,
    ]);
    expect(await bare.trialMerge(ours, theirs)).toEqual({ clean: false, conflicts: ['renamed.txt'] });
    const clean = await bare.trialMerge(ours, other);
    expect(clean).toMatchObject({ clean: true });
    expect(await bare.mergeBase(ours, other)).toBe(main);
    const merge = await bare.commitTree({
      tree: clean.clean ? clean.tree : '',
      parents: [ours, other],
      message: 'Merge',
      author: { name: 'Bot', email: 'bot@example.com' },
    });
    expect((await bare.commit(merge)).parentIds).toEqual([ours, other]);
    expect(await bare.updateRef('refs/heads/ours', merge, theirs)).toBe(false);
    expect(await bare.updateRef('refs/heads/ours', merge, ours)).toBe(true);
    // Commits of one second come in no fixed order.
    expect((await bare.log({ head: merge, excluded: [main] })).map((commit) => commit.message).sort()).toEqual([
      // Written by commitTree: the message as given, without the newline `git commit` adds.
      'Merge',
      'Other\n',
      'Ours\n',
    ]);
    expect(await bare.deleteRef('refs/heads/other', other)).toBe(true);
    expect(await bare.resolveCommit('refs/heads/other')).toBeNull();
  });

  it('fetches a commit of another repository into a ref, with its history, moving the ref even when it is no fast-forward', async () => {
    const target = new GitRepository(path.join(root, 'target.git'));
    await target.create('main');
    const ours = (await bare.resolveCommit('refs/heads/ours')) ?? '';
    const theirs = (await bare.resolveCommit('refs/heads/theirs')) ?? '';
    expect(await target.resolveCommit(ours)).toBeNull();

    await target.fetchCommit({ source: bare, sha: ours, into: 'refs/merge-requests/1/head' });
    expect(await target.resolveCommit('refs/merge-requests/1/head')).toBe(ours);
    expect((await target.log({ head: ours, excluded: [] })).length).toBe((await bare.log({ head: ours, excluded: [] })).length);
    await target.fetchCommit({ source: bare, sha: theirs, into: 'refs/merge-requests/1/head' });
    expect(await target.resolveCommit('refs/merge-requests/1/head')).toBe(theirs);
    // Only the merge request's ref: no branch of the source comes along.
    expect(await target.refs()).toEqual(new Map());
  });

  it('rebases a head onto another commit without moving refs, keeping authors, and stops on conflicts leaving no worktree', async () => {
    const ours = (await bare.resolveCommit('refs/heads/ours')) ?? '';
    const theirs = (await bare.resolveCommit('refs/heads/theirs')) ?? '';
    const main = (await bare.resolveCommit('main')) ?? '';
    await runGit(['-C', work, 'reset', '-q', '--hard', main]);
    const side = await commitFile('side.txt', 'side\n', 'Side');
    await runGit(['-C', work, 'push', '-q', bare.path, `${side}:refs/heads/side`]);
    const committer = { name: 'Rebaser', email: 'rebaser@example.com' };

    const rebased = await bare.rebase({ head: side, onto: theirs, committer });
    if (!rebased.rebased) throw new Error('the rebase stopped');
    const commit = await bare.commit(rebased.head);
    expect(commit).toMatchObject({ parentIds: [theirs], message: 'Side\n', authorName: 'Ada', committerName: 'Rebaser' });
    expect(await bare.readFile(rebased.head, 'side.txt')).toBe('side\n');
    expect(await bare.resolveCommit('refs/heads/side')).toBe(side);

    expect(await bare.rebase({ head: theirs, onto: ours, committer })).toEqual({ rebased: false });
    expect(await bare.resolveCommit('refs/heads/theirs')).toBe(theirs);
    const worktrees = (await runGit(['--git-dir', bare.path, 'worktree', 'list', '--porcelain'])).stdout;
    expect(worktrees.split('\n').filter((line) => line.startsWith('worktree '))).toEqual([`worktree ${bare.path}`]);
  });
});
