/**
 * ResolveCommits and GetCommit through a real gRPC server and review-client's client, against real PostgreSQL,
 * Kafka and a repository on disk (identity's access answers come from a fake): which commits a
 * project's branches, tags and shas name, for whom, and nothing for a project never pushed to.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ForbiddenError, InputError, NotFoundError } from '@platform/errors';
import { FakeIdentityAccess } from '@platform/identity-client';
import { GrpcProjectCommits } from '@platform/review-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, TEST_INTERNAL_SECRET, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';
import { runGit } from '../repositories/git-command.ts';
import { hashedDiskPath } from '../repositories/repository-storages.ts';

const developer = userCaller(31, 'dev');
const guest = userCaller(32, 'guest');
const stranger = userCaller(33, 'stranger');
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 7, path: 'acme/app', levels: { 31: 30, 32: 10 } })
  .add({ resource: 'project', id: 9, path: 'acme/empty', levels: { 31: 30 } });
let harness: ServiceHarness<RunningService>;
let dataDir: string;
let commits: GrpcProjectCommits;
let first: string;
let second: string;

const repositoryPath = (projectId: number) => path.join(dataDir, 'repositories', hashedDiskPath(projectId));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'review-commits-'));
  harness = await startServiceHarness({
    label: 'review_commits',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users: new FixedUserDirectory([]) })),
  });
  commits = new GrpcProjectCommits({ address: `127.0.0.1:${harness.service.grpcPort}`, internalSecret: TEST_INTERNAL_SECRET });

  // The repository is created when first used; two commits on main, the first tagged, pushed straight to disk.
  expect((await harness.api.get('/api/v4/projects/7/repository/branches').set(harness.as(developer))).status).toBe(200);
  const work = path.join(dataDir, 'work');
  await runGit(['init', '--quiet', '--initial-branch=main', work]);
  const identity = ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com'];
  for (const file of ['a', 'b']) {
    await writeFile(path.join(work, file), `${file}\n`);
    await runGit(['-C', work, 'add', file]);
    await runGit(['-C', work, ...identity, 'commit', '--quiet', '-m', `add ${file}`]);
  }
  first = (await runGit(['-C', work, 'rev-parse', 'HEAD~1'])).stdout.trim();
  second = (await runGit(['-C', work, 'rev-parse', 'HEAD'])).stdout.trim();
  await runGit(['-C', work, 'tag', 'v1.0', first]);
  await runGit(['-C', work, 'push', '--quiet', repositoryPath(7), 'main', 'v1.0']);
}, 120_000);

afterAll(async () => {
  commits?.close();
  await harness?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('ResolveCommits', () => {
  it('answers the commit each branch, tag and sha names, and none for the rest', async () => {
    const revisions = ['main', 'v1.0', first, second.slice(0, 8), 'no-such-branch', 'f'.repeat(40), 'main..v1.0'];
    expect(await commits.resolve({ caller: developer, projectId: 7, revisions })).toEqual([second, first, first, second, null, null, null]);
  });

  it('answers none for a project nothing was pushed to, without creating its repository', async () => {
    expect(await commits.resolve({ caller: developer, projectId: 9, revisions: ['main', first] })).toEqual([null, null]);
    expect(existsSync(repositoryPath(9))).toBe(false);
  });

  it('refuses callers who may not read the code, and too many or empty revisions', async () => {
    await expect(commits.resolve({ caller: stranger, projectId: 7, revisions: ['main'] })).rejects.toBeInstanceOf(NotFoundError);
    await expect(commits.resolve({ caller: guest, projectId: 7, revisions: ['main'] })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(commits.resolve({ caller: developer, projectId: 7, revisions: Array(11).fill('main') })).rejects.toBeInstanceOf(
      InputError,
    );
    await expect(commits.resolve({ caller: developer, projectId: 7, revisions: [''] })).rejects.toBeInstanceOf(InputError);
  });
});

describe('GetCommit', () => {
  it('answers a commit by its full sha as pushes describe it, and none for an unknown sha', async () => {
    expect(await commits.commit({ caller: developer, projectId: 7, sha: first })).toEqual({
      id: first,
      message: 'add a\n',
      authorName: 'Dev',
      authorEmail: 'dev@example.com',
      committedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/),
    });
    expect(await commits.commit({ caller: developer, projectId: 7, sha: 'f'.repeat(40) })).toBeNull();
    expect(await commits.commit({ caller: developer, projectId: 9, sha: first })).toBeNull();
  });

  it('refuses callers who may not read the code, and what is no full sha', async () => {
    await expect(commits.commit({ caller: stranger, projectId: 7, sha: first })).rejects.toBeInstanceOf(NotFoundError);
    await expect(commits.commit({ caller: guest, projectId: 7, sha: first })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(commits.commit({ caller: developer, projectId: 7, sha: 'main' })).rejects.toBeInstanceOf(InputError);
  });
});
