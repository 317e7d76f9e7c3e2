/**
 * The repository API's writes (files, commits, branches, tags, cherry-picks and reverts) against
 * real PostgreSQL, Kafka and repositories on disk: what the API writes, a git clone reads back;
 * identity's access answers come from a fake.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AuthenticatedCaller } from '@platform/auth';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';
import { runGit } from '../repositories/git-command.ts';
import { CONTENT_BODY_BYTES } from '../repositories/repository-params.ts';
import { hashedDiskPath } from '../repositories/repository-storages.ts';

const developer = userCaller(51, 'dev');
const maintainer = userCaller(52, 'boss');
const reporter = userCaller(53, 'viewer');
const levels = { 51: 30, 52: 40, 53: 20 };
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 21, path: 'acme/files', levels })
  .add({ resource: 'project', id: 22, path: 'acme/empty', levels })
  .add({ resource: 'project', id: 23, path: 'acme/commits', levels })
  .add({ resource: 'project', id: 24, path: 'acme/branches', levels })
  .add({ resource: 'project', id: 25, path: 'acme/tags', levels })
  .add({ resource: 'project', id: 26, path: 'acme/picks', levels })
  .add({ resource: 'project', id: 27, path: 'acme/archived', levels, archived: true })
  .add({ resource: 'project', id: 28, path: 'acme/large', levels })
  .add({ resource: 'project', id: 29, path: 'acme/to-archive', levels });
let harness: ServiceHarness<RunningService>;
let dataDir: string;

const bare = (projectId: number) => path.join(dataDir, 'repositories', hashedDiskPath(projectId));
const api = (method: 'get' | 'post' | 'put' | 'delete', url: string, caller: AuthenticatedCaller = maintainer) =>
  harness.api[method](url).set(harness.as(caller));

/** A fresh clone of the project's repository, read with git itself. */
async function cloneOf(projectId: number, branch = 'main'): Promise<string> {
  const into = path.join(dataDir, `clone-${randomUUID()}`);
  await runGit(['clone', '--quiet', '--branch', branch, bare(projectId), into]);
  return into;
}
const gitIn = async (directory: string, ...args: string[]) => (await runGit(['-C', directory, ...args])).stdout.trim();

/** Creates `file_path` on `branch` through the API, expecting success. */
async function createFile(projectId: number, filePath: string, content: string, branch = 'main') {
  const response = await api('post', `/api/v4/projects/${projectId}/repository/files/${encodeURIComponent(filePath)}`).send({
    branch,
    content,
    commit_message: `Add ${filePath}`,
  });
  expect(response.status).toBe(201);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'review-writes-'));
  harness = await startServiceHarness({
    label: 'review_writes',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users: new FixedUserDirectory([]) })),
  });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('POST, PUT and DELETE /projects/:id/repository/files/:file_path', () => {
  it('writes real commits: the first creates the branch of an empty repository, each by the caller, read back by git clone', async () => {
    const created = await api('post', '/api/v4/projects/21/repository/files/docs%2Fintro.md').send({
      branch: 'main',
      content: 'hello\n',
      commit_message: 'Add intro',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ file_path: 'docs/intro.md', branch: 'main' });

    const binary = Buffer.from([0, 1, 2, 255, 254]);
    const script = await api('post', '/api/v4/projects/21/repository/files/run.sh').send({
      branch: 'main',
      content: binary.toString('base64'),
      encoding: 'base64',
      execute_filemode: true,
      commit_message: 'Add script',
      author_name: 'Grace',
      author_email: 'grace@example.com',
    });
    expect(script.status).toBe(201);

    const clone = await cloneOf(21);
    expect(await readFile(path.join(clone, 'docs', 'intro.md'), 'utf8')).toBe('hello\n');
    expect(await readFile(path.join(clone, 'run.sh'))).toEqual(binary);
    expect((await stat(path.join(clone, 'run.sh'))).mode & 0o111).not.toBe(0);
    expect(await gitIn(clone, 'log', '--format=%s|%an|%ae|%cn|%ce')).toBe(
      [
        'Add script|Grace|grace@example.com|boss|52-boss@users.noreply.localhost',
        'Add intro|boss|52-boss@users.noreply.localhost|boss|52-boss@users.noreply.localhost',
      ].join('\n'),
    );
    // The same push processing as git push: one event per ref change, the first branch the default.
    const pushed = await harness.outboxEvents('review.repository.pushed');
    expect(pushed.filter((event) => (event.data as { projectId: number }).projectId === 21)).toHaveLength(2);
    const branches = await api('get', '/api/v4/projects/21/repository/branches/main');
    expect(branches.body).toMatchObject({ name: 'main', default: true, protected: true });
  });

  it('updates and deletes, refusing a stale last_commit_id, a missing file, an existing one and a missing branch as GitLab does', async () => {
    await createFile(22, 'a.txt', 'one\n');
    const head = (await runGit(['--git-dir', bare(22), 'rev-parse', 'main'])).stdout.trim();
    const url = '/api/v4/projects/22/repository/files/a.txt';

    expect((await api('post', url).send({ branch: 'main', content: 'x', commit_message: 'again' })).body).toEqual({
      message: 'A file with this name already exists',
    });
    expect(
      (await api('put', '/api/v4/projects/22/repository/files/b.txt').send({ branch: 'main', content: 'x', commit_message: 'm' })).body,
    ).toEqual({ message: "A file with this name doesn't exist" });
    const noBranch = await api('put', url).send({ branch: 'nope', content: 'x', commit_message: 'm' });
    expect(noBranch.status).toBe(400);
    expect(noBranch.body).toEqual({ message: 'You can only create or edit files when you are on a branch' });

    const updated = await api('put', url).send({ branch: 'main', content: 'two\n', commit_message: 'Update a', last_commit_id: head });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ file_path: 'a.txt', branch: 'main' });
    const stale = await api('put', url).send({ branch: 'main', content: 'three\n', commit_message: 'Stale', last_commit_id: head });
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({ message: 'You are attempting to update a file that has changed since you started editing it.' });

    // A new branch from start_branch, then the file deleted there only.
    expect(
      (
        await api('post', '/api/v4/projects/22/repository/files/b.txt').send({
          branch: 'topic',
          start_branch: 'main',
          content: 'b',
          commit_message: 'b',
        })
      ).status,
    ).toBe(201);
    const deleted = await api('delete', url).send({ branch: 'topic', commit_message: 'Remove a' });
    expect(deleted.status).toBe(204);
    const topic = await cloneOf(22, 'topic');
    await expect(stat(path.join(topic, 'a.txt'))).rejects.toThrow();
    expect(await readFile(path.join(topic, 'b.txt'), 'utf8')).toBe('b');
    expect(await readFile(path.join(await cloneOf(22), 'a.txt'), 'utf8')).toBe('two\n');
  });

  it('refuses bad input with 400s, readers with 403, and protected branches as GitLab does', async () => {
    const traversal = await api('post', '/api/v4/projects/22/repository/files/..%2Fescape').send({
      branch: 'main',
      content: 'x',
      commit_message: 'm',
    });
    expect(traversal.status).toBe(400);
    const missing = await api('post', '/api/v4/projects/22/repository/files/c.txt').send({ branch: 'main' });
    expect(missing.status).toBe(400);
    expect(missing.body).toHaveProperty('error');
    const option = await api('post', '/api/v4/projects/22/repository/files/c.txt').send({
      branch: '--upload-pack=x',
      content: 'x',
      commit_message: 'm',
    });
    expect(option.status).toBe(400);
    // Bodies past the content routes' bound are refused before they are read whole: no 500, no memory growth.
    const huge = await api('post', '/api/v4/projects/22/repository/files/huge.bin').send({
      branch: 'main',
      content: 'x'.repeat(CONTENT_BODY_BYTES + 1),
      commit_message: 'm',
    });
    expect(huge.status).toBe(413);
    const read = await api('post', '/api/v4/projects/22/repository/files/c.txt', reporter).send({
      branch: 'main',
      content: 'x',
      commit_message: 'm',
    });
    expect(read.status).toBe(403);
    // The first branch is protected for maintainers: a developer may not commit to it, a maintainer may.
    const refused = await api('post', '/api/v4/projects/21/repository/files/c.txt', developer).send({
      branch: 'main',
      content: 'x',
      commit_message: 'm',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'You are not allowed to push into this branch' });
    const allowed = await api('post', '/api/v4/projects/21/repository/files/c.txt', maintainer).send({
      branch: 'main',
      content: 'x',
      commit_message: 'm',
    });
    expect(allowed.status).toBe(201);
  });
});

describe('files of 5 MB, past the 1 MB bodies of other routes', () => {
  it('are written as text and base64 through the files API and POST /repository/commits, and read back whole, raw and in JSON', async () => {
    const text = `${'0123456789abcdef'.repeat(64)}\n`.repeat(5 * 1024);
    const binary = Buffer.alloc(5 * 1024 * 1024, 7);
    const files = '/api/v4/projects/28/repository/files';
    const created = await api('post', `${files}/large.txt`).send({ branch: 'main', content: text, commit_message: 'Add a large file' });
    expect(created.status).toBe(201);
    const updated = await api('put', `${files}/large.txt`).send({
      branch: 'main',
      content: binary.toString('base64'),
      encoding: 'base64',
      commit_message: 'Make it binary',
    });
    expect(updated.status).toBe(200);
    const committed = await api('post', '/api/v4/projects/28/repository/commits').send({
      branch: 'main',
      commit_message: 'Add another',
      actions: [{ action: 'create', file_path: 'again.txt', content: text }],
    });
    expect(committed.status).toBe(201);

    const read = await api('get', `${files}/large.txt?ref=main`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ file_name: 'large.txt', size: binary.length, encoding: 'base64' });
    expect(Buffer.from(read.body.content, 'base64').equals(binary)).toBe(true);
    const raw = await api('get', `${files}/again.txt/raw?ref=main`).buffer(true);
    expect(raw.status).toBe(200);
    expect(raw.text).toBe(text);
    const clone = await cloneOf(28);
    expect((await readFile(path.join(clone, 'large.txt'))).equals(binary)).toBe(true);
  });
});

describe('writes racing each other and a storage move', () => {
  it('moves a branch only from the head a commit was computed on: a concurrent write is refused, never lost', async () => {
    await createFile(22, 'race/seed.txt', 'seed');
    const writes = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        api('post', `/api/v4/projects/22/repository/files/race%2F${index}.txt`).send({
          branch: 'main',
          content: `${index}`,
          commit_message: `race ${index}`,
        }),
      ),
    );
    for (const response of writes) {
      if (response.status !== 201)
        expect(response.body).toEqual({ message: 'Could not update refs/heads/main. Please refresh and try again.' });
    }
    const written = writes.filter((response) => response.status === 201).length;
    expect(written).toBeGreaterThan(0);
    const clone = await cloneOf(22);
    expect((await gitIn(clone, 'ls-files', 'race')).split('\n')).toHaveLength(written + 1);
    expect((await gitIn(clone, 'log', '--format=%s', '-n', String(written))).split('\n').every((title) => title.startsWith('race '))).toBe(
      true,
    );
  });

  it('refuses writes to a repository that is read-only (a storage move), changing no ref', async () => {
    const before = (await runGit(['--git-dir', bare(22), 'rev-parse', 'main'])).stdout.trim();
    await harness.sql('update repositories set read_only = true where project_id = 22');
    try {
      const refused = await api('post', '/api/v4/projects/22/repository/files/moving.txt').send({
        branch: 'main',
        content: 'x',
        commit_message: 'm',
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: '403 Forbidden - The repository is temporarily read-only. Please try again later.' });
      expect((await api('post', '/api/v4/projects/22/repository/tags').send({ tag_name: 'moving', ref: 'main' })).status).toBe(403);
    } finally {
      await harness.sql('update repositories set read_only = false where project_id = 22');
    }
    expect((await runGit(['--git-dir', bare(22), 'rev-parse', 'main'])).stdout.trim()).toBe(before);
  });
});

describe('an archived project', () => {
  it('is read-only: every API write is refused, maintainers included', async () => {
    const file = await api('post', '/api/v4/projects/27/repository/files/a.txt').send({
      branch: 'main',
      content: 'a',
      commit_message: 'm',
    });
    expect(file.status).toBe(403);
    expect(file.body).toEqual({ message: '403 Forbidden' });
    expect((await api('post', '/api/v4/projects/27/repository/branches').send({ branch: 'b', ref: 'main' })).status).toBe(403);
    expect((await api('post', '/api/v4/projects/27/repository/tags').send({ tag_name: 't', ref: 'main' })).status).toBe(403);
    expect((await api('get', '/api/v4/projects/27/repository/branches', reporter)).status).toBe(200);
  });

  it('opens and changes no merge request once archived (403 for maintainers too), and still shows them', async () => {
    await createFile(29, 'a.txt', 'a\n');
    await createFile(29, 'b.txt', 'b\n', 'main');
    expect((await api('post', '/api/v4/projects/29/repository/branches').send({ branch: 'topic', ref: 'main' })).status).toBe(201);
    await createFile(29, 'c.txt', 'c\n', 'topic');
    const opened = await api('post', '/api/v4/projects/29/merge_requests').send({
      source_branch: 'topic',
      target_branch: 'main',
      title: 'Topic',
    });
    expect(opened.status).toBe(201);

    access.remove(29).add({ resource: 'project', id: 29, path: 'acme/to-archive', levels, archived: true });
    const edit = await api('put', `/api/v4/projects/29/merge_requests/${opened.body.iid}`).send({ title: 'Renamed' });
    expect(edit.status).toBe(403);
    expect(edit.body).toEqual({ message: '403 Forbidden' });
    const again = await api('post', '/api/v4/projects/29/merge_requests').send({
      source_branch: 'topic',
      target_branch: 'main',
      title: 'Again',
    });
    expect(again.status).toBe(403);
    const shown = await api('get', `/api/v4/projects/29/merge_requests/${opened.body.iid}`, reporter);
    expect(shown.body).toMatchObject({ title: 'Topic', state: 'opened' });
  });
});

describe('POST /projects/:id/repository/commits', () => {
  const commitsUrl = '/api/v4/projects/23/repository/commits';

  it('writes several actions as one commit, answering the commit with its stats, and git clone reads it back', async () => {
    const first = await api('post', commitsUrl).send({
      branch: 'main',
      commit_message: 'Start',
      actions: [
        { action: 'create', file_path: 'keep.txt', content: 'keep\n' },
        { action: 'create', file_path: 'old/name.txt', content: 'moving\n' },
        { action: 'create', file_path: 'gone.txt', content: 'bye\n' },
        { action: 'create', file_path: 'tool', content: 'run\n' },
      ],
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ title: 'Start', parent_ids: [], stats: { additions: 4, deletions: 0, total: 4 }, project_id: 23 });

    const second = await api('post', commitsUrl).send({
      branch: 'main',
      commit_message: 'Reshape\n\nin one commit',
      author_name: 'Grace',
      author_email: 'grace@example.com',
      actions: [
        { action: 'update', file_path: 'keep.txt', content: Buffer.from('kept\n').toString('base64'), encoding: 'base64' },
        { action: 'move', previous_path: 'old/name.txt', file_path: 'new/name.txt' },
        { action: 'delete', file_path: 'gone.txt', last_commit_id: first.body.id },
        { action: 'chmod', file_path: 'tool', execute_filemode: true },
      ],
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      // As given: GitLab's commits do not end their messages with a newline as `git commit` does.
      message: 'Reshape\n\nin one commit',
      parent_ids: [first.body.id],
      author_name: 'Grace',
      author_email: 'grace@example.com',
      committer_name: 'boss',
    });
    const clone = await cloneOf(23);
    expect(await gitIn(clone, 'rev-parse', 'HEAD')).toBe(second.body.id);
    expect((await runGit(['-C', clone, 'cat-file', 'commit', 'HEAD'])).stdout.endsWith('\n\nReshape\n\nin one commit')).toBe(true);
    expect(await gitIn(clone, 'ls-tree', '-r', '--format=%(objectmode) %(path)', 'HEAD')).toBe(
      ['100644 keep.txt', '100644 new/name.txt', '100755 tool'].join('\n'),
    );
    expect(await readFile(path.join(clone, 'keep.txt'), 'utf8')).toBe('kept\n');
    expect(await readFile(path.join(clone, 'new', 'name.txt'), 'utf8')).toBe('moving\n');
  });

  it('starts a new branch from start_branch or start_sha, and overwrites an existing one only with force', async () => {
    const main = (await runGit(['--git-dir', bare(23), 'rev-parse', 'main'])).stdout.trim();
    const create = (extra: Record<string, unknown>, file: string) =>
      api('post', commitsUrl).send({ commit_message: file, actions: [{ action: 'create', file_path: file, content: file }], ...extra });
    expect((await create({ branch: 'feature', start_branch: 'main' }, 'f1')).body).toMatchObject({ parent_ids: [main] });
    expect((await create({ branch: 'feature', start_sha: main }, 'f2')).body).toEqual({
      message: "A branch called 'feature' already exists. Switch to that branch in order to make changes",
    });
    const forced = await create({ branch: 'feature', start_sha: main, force: true }, 'f3');
    expect(forced.status).toBe(201);
    expect(forced.body).toMatchObject({ parent_ids: [main] });
    expect(await gitIn(await cloneOf(23, 'feature'), 'ls-files')).not.toContain('f1');

    expect((await create({ branch: 'x', start_branch: 'main', start_sha: main }, 'x')).body).toEqual({
      message: "You can't pass both start_branch and start_sha",
    });
    expect((await create({ branch: 'x', start_sha: 'abc' }, 'x')).body).toEqual({ message: "Invalid start_sha 'abc'" });
    expect((await create({ branch: 'x', start_sha: 'f'.repeat(40) }, 'x')).body).toEqual({
      message: `Cannot find start_sha '${'f'.repeat(40)}'`,
    });
    expect((await create({ branch: 'x', start_branch: 'nope' }, 'x')).body).toEqual({
      message: 'You can only create or edit files when you are on a branch',
    });
    expect((await create({ branch: 'bad..name', start_branch: 'main' }, 'x')).body).toEqual({
      message: "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid",
    });
  });

  it('refuses an action on a missing or existing file, a stale last_commit_id and malformed actions, changing nothing', async () => {
    const before = (await runGit(['--git-dir', bare(23), 'rev-parse', 'main'])).stdout.trim();
    const send = (actions: unknown[]) => api('post', commitsUrl).send({ branch: 'main', commit_message: 'm', actions });
    expect((await send([{ action: 'create', file_path: 'keep.txt', content: 'x' }])).body).toEqual({
      message: 'A file with this name already exists',
    });
    expect((await send([{ action: 'create', file_path: 'new', content: 'x' }])).body).toEqual({
      message: 'A directory with this name already exists',
    });
    expect((await send([{ action: 'delete', file_path: 'missing' }])).body).toEqual({ message: "A file with this name doesn't exist" });
    expect((await send([{ action: 'update', file_path: 'keep.txt', content: 'x', last_commit_id: 'a'.repeat(40) }])).body).toEqual({
      message: 'The file has changed since you started editing it: keep.txt',
    });
    // The first actions applied, a later one refused: the commit is not written at all.
    const partial = await send([
      { action: 'create', file_path: 'fresh.txt', content: 'x' },
      { action: 'delete', file_path: 'missing' },
    ]);
    expect(partial.status).toBe(400);
    for (const malformed of [
      [],
      [{ action: 'explode', file_path: 'a' }],
      [{ action: 'move', file_path: 'a' }],
      [{ action: 'chmod', file_path: 'tool' }],
    ]) {
      const response = await send(malformed);
      expect(response.status).toBe(400);
      expect(response.body).toHaveProperty('error');
    }
    expect((await runGit(['--git-dir', bare(23), 'rev-parse', 'main'])).stdout.trim()).toBe(before);
  });
});

describe('branches: POST, DELETE .../repository/branches and DELETE .../repository/merged_branches', () => {
  const branchesUrl = '/api/v4/projects/24/repository/branches';

  it('creates a branch in an empty repository after a default branch with an empty README.md, with GitLab refusals', async () => {
    const created = await api('post', branchesUrl, developer).send({ branch: 'feature', ref: 'main' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'feature', merged: false, default: false, commit: { title: 'Add README.md' } });
    const clone = await cloneOf(24);
    expect(await readFile(path.join(clone, 'README.md'), 'utf8')).toBe('');
    expect(await gitIn(clone, 'log', '--format=%s|%an')).toBe('Add README.md|dev');
    expect((await api('get', `${branchesUrl}/main`)).body).toMatchObject({ default: true, protected: true });

    expect((await api('post', branchesUrl).send({ branch: 'other', ref: 'nope' })).body).toEqual({
      message: "Failed to create branch 'other': invalid reference name 'nope'",
    });
    expect((await api('post', branchesUrl).send({ branch: 'feature', ref: 'main' })).body).toEqual({ message: 'Branch already exists' });
    expect((await api('post', branchesUrl).send({ branch: 'bad..name', ref: 'main' })).body).toEqual({ message: 'Branch name is invalid' });
    expect((await api('post', branchesUrl).send({ branch: 'x', ref: '--output=/tmp/x' })).status).toBe(400);
    expect((await api('post', branchesUrl, reporter).send({ branch: 'x', ref: 'main' })).status).toBe(403);
  });

  it('deletes branches as pushes do: a protected one only by a maintainer, never the default branch', async () => {
    await api('post', '/api/v4/projects/24/protected_branches').send({ name: 'release/*' });
    expect((await api('post', branchesUrl).send({ branch: 'release/1', ref: 'main' })).status).toBe(201);
    expect((await api('post', branchesUrl, developer).send({ branch: 'gone', ref: 'main' })).status).toBe(201);

    expect((await api('delete', `${branchesUrl}/gone`, developer)).status).toBe(204);
    expect((await runGit(['--git-dir', bare(24), 'branch', '--list', 'gone'])).stdout).toBe('');
    expect((await api('delete', `${branchesUrl}/gone`, developer)).body).toEqual({ message: '404 Branch Not Found' });
    const protectedByDeveloper = await api('delete', `${branchesUrl}/release%2F1`, developer);
    expect(protectedByDeveloper.status).toBe(400);
    expect(protectedByDeveloper.body).toEqual({
      message:
        'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
    });
    expect((await api('delete', `${branchesUrl}/main`)).body).toEqual({ message: 'The default branch of a project cannot be deleted.' });
    expect((await api('delete', `${branchesUrl}/release%2F1`)).status).toBe(204);
    const deletions = (await harness.outboxEvents('review.repository.pushed')).filter(
      (event) => (event.data as { ref: string; after: string }).after === '0'.repeat(40),
    );
    expect(deletions.map((event) => (event.data as { ref: string }).ref)).toEqual(['refs/heads/gone', 'refs/heads/release/1']);
  });

  it('deletes the branches merged into the default branch, but protected ones and those with commits of their own', async () => {
    for (const branch of ['merged-a', 'merged-b', 'release/2', 'ahead']) {
      expect((await api('post', branchesUrl).send({ branch, ref: 'main' })).status).toBe(201);
    }
    await createFile(24, 'ahead.txt', 'ahead', 'ahead');
    const response = await api('delete', '/api/v4/projects/24/repository/merged_branches', developer);
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ message: '202 Accepted' });
    // Branches at the default branch's head are not merged (GitLab's `merged`), so they stay too.
    expect(
      (await runGit(['--git-dir', bare(24), 'for-each-ref', '--format=%(refname:short)', 'refs/heads/'])).stdout
        .split('\n')
        .filter(Boolean)
        .sort(),
    ).toEqual(['ahead', 'feature', 'main', 'merged-a', 'merged-b', 'release/2']);
    await createFile(24, 'next.txt', 'next');
    expect((await api('delete', '/api/v4/projects/24/repository/merged_branches', developer)).status).toBe(202);
    expect(
      (await runGit(['--git-dir', bare(24), 'for-each-ref', '--format=%(refname:short)', 'refs/heads/'])).stdout
        .split('\n')
        .filter(Boolean)
        .sort(),
    ).toEqual(['ahead', 'main', 'release/2']);
  });
});

describe('tags: GET, POST and DELETE .../repository/tags', () => {
  const tagsUrl = '/api/v4/projects/25/repository/tags';

  it('creates lightweight and annotated tags that git clone sees, lists them by search and order, reads and deletes them', async () => {
    await createFile(25, 'a.txt', 'a');
    const first = (await runGit(['--git-dir', bare(25), 'rev-parse', 'main'])).stdout.trim();
    const light = await api('post', tagsUrl, developer).send({ tag_name: 'v1.9', ref: 'main' });
    expect(light.status).toBe(201);
    expect(light.body).toMatchObject({
      name: 'v1.9',
      target: first,
      message: '',
      created_at: null,
      protected: false,
      release: null,
      commit: { id: first },
    });
    await createFile(25, 'b.txt', 'b');
    const annotated = await api('post', tagsUrl, developer).send({ tag_name: 'v1.10', ref: 'main', message: '  Release 1.10\n' });
    expect(annotated.status).toBe(201);
    expect(annotated.body.message).toBe('Release 1.10');
    expect(annotated.body.target).not.toBe(annotated.body.commit.id);
    expect(annotated.body.created_at).toEqual(expect.any(String));
    expect((await api('post', tagsUrl, developer).send({ tag_name: 'other', ref: first })).status).toBe(201);

    const clone = await cloneOf(25);
    expect(await gitIn(clone, 'tag', '--list')).toBe(['other', 'v1.10', 'v1.9'].join('\n'));
    expect(await gitIn(clone, 'cat-file', '-t', 'v1.10')).toBe('tag');
    expect(await gitIn(clone, 'for-each-ref', '--format=%(taggername) %(contents:subject)', 'refs/tags/v1.10')).toBe('dev Release 1.10');

    const names = async (query: string) =>
      ((await api('get', `${tagsUrl}${query}`, reporter)).body as Array<{ name: string }>).map((tag) => tag.name);
    expect(await names('?order_by=version&sort=asc')).toEqual(['other', 'v1.9', 'v1.10']);
    expect(await names('?order_by=name&sort=asc')).toEqual(['other', 'v1.10', 'v1.9']);
    expect((await names(''))[0]).toBe('v1.10');
    expect(await names('?search=^v1')).toEqual(expect.arrayContaining(['v1.9', 'v1.10']));
    expect(await names('?search=^v1')).toHaveLength(2);
    expect((await api('get', `${tagsUrl}/v1.10`, reporter)).body).toMatchObject({ name: 'v1.10', message: 'Release 1.10' });
    expect((await api('get', `${tagsUrl}/nope`, reporter)).body).toEqual({ message: '404 Tag Not Found' });

    expect((await api('post', tagsUrl).send({ tag_name: 'v1.9', ref: 'main' })).body).toEqual({ message: 'Tag v1.9 already exists' });
    expect((await api('post', tagsUrl).send({ tag_name: 'bad..tag', ref: 'main' })).body).toEqual({ message: 'Tag name invalid' });
    expect((await api('post', tagsUrl).send({ tag_name: 'v2', ref: 'nope' })).body).toEqual({ message: 'Target nope is invalid' });
    expect((await api('post', tagsUrl, reporter).send({ tag_name: 'v2', ref: 'main' })).status).toBe(403);

    expect((await api('delete', `${tagsUrl}/v1.10`, developer)).status).toBe(204);
    expect((await api('delete', `${tagsUrl}/v1.10`, developer)).status).toBe(404);
    expect((await runGit(['--git-dir', bare(25), 'tag', '--list'])).stdout.split('\n').filter(Boolean)).toEqual(['other', 'v1.9']);
    const tagEvents = (await harness.outboxEvents('review.repository.pushed')).filter((event) =>
      (event.data as { ref: string }).ref.startsWith('refs/tags/v1.10'),
    );
    expect(tagEvents).toHaveLength(2);
  });
});

describe('POST .../repository/commits/:sha/cherry_pick and .../revert', () => {
  const commitsUrl = '/api/v4/projects/26/repository/commits';
  const headOf = async (branch: string) => (await runGit(['--git-dir', bare(26), 'rev-parse', branch])).stdout.trim();

  it('applies a commit of another branch onto a branch, keeping its author, then reverts it, with dry runs and GitLab refusals', async () => {
    await createFile(26, 'a.txt', 'one\ntwo\nthree\n');
    const onTopic = await api('post', commitsUrl).send({
      branch: 'topic',
      start_branch: 'main',
      commit_message: 'Change one',
      author_name: 'Grace',
      author_email: 'grace@example.com',
      actions: [{ action: 'update', file_path: 'a.txt', content: 'ONE\ntwo\nthree\n' }],
    });
    expect(onTopic.status).toBe(201);
    await createFile(26, 'b.txt', 'b');
    const mainBefore = await headOf('main');

    const dryRun = await api('post', `${commitsUrl}/${onTopic.body.id}/cherry_pick`).send({ branch: 'main', dry_run: true });
    expect(dryRun.status).toBe(200);
    expect(dryRun.body).toEqual({ dry_run: 'success' });
    expect(await headOf('main')).toBe(mainBefore);

    const picked = await api('post', `${commitsUrl}/${onTopic.body.id}/cherry_pick`).send({ branch: 'main' });
    expect(picked.status).toBe(201);
    expect(picked.body).toMatchObject({
      parent_ids: [mainBefore],
      author_name: 'Grace',
      committer_name: 'boss',
      message: `Change one\n\n(cherry picked from commit ${onTopic.body.id})`,
    });
    const clone = await cloneOf(26);
    expect(await readFile(path.join(clone, 'a.txt'), 'utf8')).toBe('ONE\ntwo\nthree\n');
    expect(await readFile(path.join(clone, 'b.txt'), 'utf8')).toBe('b');

    const again = await api('post', `${commitsUrl}/${onTopic.body.id}/cherry_pick`).send({ branch: 'main' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      message:
        'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.',
      error_code: 'empty',
    });

    const reverted = await api('post', `${commitsUrl}/${picked.body.id}/revert`).send({ branch: 'main' });
    expect(reverted.status).toBe(201);
    expect(reverted.body).toMatchObject({
      title: 'Revert "Change one"',
      message: `Revert "Change one"\n\nThis reverts commit ${picked.body.id}`,
      author_name: 'boss',
    });
    expect(await readFile(path.join(await cloneOf(26), 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');

    // main now says "one" again while topic's change conflicts with a different edit of that line.
    await api('put', '/api/v4/projects/26/repository/files/a.txt').send({
      branch: 'main',
      content: 'uno\ntwo\nthree\n',
      commit_message: 'uno',
    });
    const conflict = await api('post', `${commitsUrl}/${onTopic.body.id}/cherry_pick`).send({ branch: 'main', dry_run: true });
    expect(conflict.status).toBe(400);
    expect(conflict.body).toMatchObject({ error_code: 'conflict', dry_run: 'error' });
    const revertConflict = await api('post', `${commitsUrl}/${picked.body.id}/revert`).send({ branch: 'main' });
    expect(revertConflict.body).toMatchObject({ error_code: 'conflict' });

    expect((await api('post', `${commitsUrl}/${'f'.repeat(40)}/revert`).send({ branch: 'main' })).body).toEqual({
      message: '404 Commit Not Found',
    });
    expect((await api('post', `${commitsUrl}/${onTopic.body.id}/cherry_pick`).send({ branch: 'nope' })).body).toEqual({
      message: '404 Branch Not Found',
    });
    expect((await api('post', `${commitsUrl}/${onTopic.body.id}/cherry_pick`, developer).send({ branch: 'main' })).body).toEqual({
      message: 'You are not allowed to push into this branch',
    });
    expect((await api('post', `${commitsUrl}/${onTopic.body.id}/cherry_pick`, reporter).send({ branch: 'main' })).status).toBe(403);
  });
});
