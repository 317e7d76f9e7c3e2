/**
 * `GET /projects/:id/repository/commits/:sha/merge_requests` against real PostgreSQL, Kafka and a
 * repository on disk: the merge requests whose diff versions brought a commit, as the list shows them.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { anonymousCaller, type Caller } from '@platform/auth';
import { startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';
import { runGit } from '../repositories/git-command.ts';
import { hashedDiskPath } from '../repositories/repository-storages.ts';

const developer = userCaller(51, 'developer');
const reporter = userCaller(52, 'reporter');
const guest = userCaller(53, 'guest');
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 7, path: 'acme/app', levels: { 51: 30, 52: 20, 53: 10 } })
  .add({ resource: 'project', id: 8, path: 'acme/public', isPublic: true, levels: { 51: 30 } });
const users = new FixedUserDirectory([
  { id: 51, username: 'developer' },
  { id: 52, username: 'reporter' },
  { id: 53, username: 'guest' },
]);
let harness: ServiceHarness<RunningService>;
let dataDir: string;
let first: string;
let featureCommit: string;
let otherCommit: string;

const get = (url: string, caller: Caller = reporter) => harness.api.get(url).set(harness.as(caller));
const iidsOf = (body: Array<{ iid: number }>) => body.map((mergeRequest) => mergeRequest.iid);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'review-commit-merge-requests-'));
  harness = await startServiceHarness({
    label: 'review_commit_merge_requests',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users })),
  });
  expect((await get('/api/v4/projects/7/repository/branches')).status).toBe(200);
  const work = path.join(dataDir, 'work');
  await runGit(['init', '--quiet', '--initial-branch=main', work]);
  const commit = async (file: string, message: string) => {
    await writeFile(path.join(work, file), `${message}\n`);
    await runGit(['-C', work, 'add', file]);
    await runGit(['-C', work, '-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '--quiet', '-m', message]);
    return (await runGit(['-C', work, 'rev-parse', 'HEAD'])).stdout.trim();
  };
  first = await commit('a.txt', 'First');
  await runGit(['-C', work, 'checkout', '--quiet', '-b', 'feature', first]);
  featureCommit = await commit('b.txt', 'Feature');
  await runGit(['-C', work, 'checkout', '--quiet', '-b', 'other', first]);
  otherCommit = await commit('c.txt', 'Other');
  await runGit(['-C', work, 'push', '--quiet', path.join(dataDir, 'repositories', hashedDiskPath(7)), 'main', 'feature', 'other']);
  for (const [source, title] of [
    ['feature', 'Add b'],
    ['other', 'Add c'],
  ] as const) {
    const created = await harness.api
      .post('/api/v4/projects/7/merge_requests')
      .set(harness.as(developer))
      .send({ source_branch: source, target_branch: 'main', title });
    expect(created.status).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('GET /projects/:id/repository/commits/:sha/merge_requests', () => {
  it('lists the merge requests whose diff versions brought the commit, as the merge request list shows them', async () => {
    const response = await get(`/api/v4/projects/7/repository/commits/${featureCommit}/merge_requests`);
    expect(response.status).toBe(200);
    expect(iidsOf(response.body)).toEqual([1]);
    expect(response.body[0]).toMatchObject({ iid: 1, project_id: 7, title: 'Add b', source_branch: 'feature', state: 'opened' });
    expect(response.body[0].author).toMatchObject({ id: 51, username: 'developer' });
    expect(response.headers['x-total']).toBe('1');
    expect(iidsOf((await get(`/api/v4/projects/7/repository/commits/${otherCommit}/merge_requests`)).body)).toEqual([2]);
    // A branch name names its head commit.
    expect(iidsOf((await get('/api/v4/projects/7/repository/commits/other/merge_requests')).body)).toEqual([2]);
  });

  it('leaves out merge requests whose versions start after the commit, and filters by state', async () => {
    expect((await get(`/api/v4/projects/7/repository/commits/${first}/merge_requests`)).body).toEqual([]);
    expect((await get(`/api/v4/projects/7/repository/commits/${featureCommit}/merge_requests?state=merged`)).body).toEqual([]);
    expect(iidsOf((await get(`/api/v4/projects/7/repository/commits/${featureCommit}/merge_requests?state=opened`)).body)).toEqual([1]);
    expect((await get(`/api/v4/projects/7/repository/commits/${featureCommit}/merge_requests?state=nope`)).status).toBe(400);
  });

  it('answers 404 for an unknown commit and 403 to a guest, who may not read the code', async () => {
    const missing = await get(`/api/v4/projects/7/repository/commits/${'0'.repeat(39)}1/merge_requests`);
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Commit Not Found' }]);
    expect((await get(`/api/v4/projects/7/repository/commits/${featureCommit}/merge_requests`, guest)).status).toBe(403);
  });
});

describe('GET /projects/:id/repository/commits/:sha/merge_requests of a public project', () => {
  beforeAll(async () => {
    expect((await get('/api/v4/projects/8/repository/branches', developer)).status).toBe(200);
    const work = path.join(dataDir, 'work');
    await runGit(['-C', work, 'push', '--quiet', path.join(dataDir, 'repositories', hashedDiskPath(8)), 'main', 'feature']);
    const created = await harness.api
      .post('/api/v4/projects/8/merge_requests')
      .set(harness.as(developer))
      .send({ source_branch: 'feature', target_branch: 'main', title: 'Add b in public' });
    expect(created.status).toBe(201);
  });

  it("answers anonymous callers, as GitLab lets anyone read a public project's code; a private one stays hidden from them", async () => {
    const response = await get(`/api/v4/projects/8/repository/commits/${featureCommit}/merge_requests`, anonymousCaller());
    expect(response.status).toBe(200);
    expect(iidsOf(response.body)).toEqual([1]);
    expect(response.body[0]).toMatchObject({ project_id: 8, title: 'Add b in public', author: { id: 51, username: 'developer' } });
    const hidden = await get(`/api/v4/projects/7/repository/commits/${featureCommit}/merge_requests`, anonymousCaller());
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});
