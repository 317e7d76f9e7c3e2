/**
 * The repository API's commit reads (list, detail stats, diff, refs) and compare and merge_base, against
 * real PostgreSQL, Kafka and a repository on disk that git pushes to; identity's access answers come from a fake.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { gitlabSchemaErrors, startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';
import { runGit } from '../repositories/git-command.ts';
import { hashedDiskPath } from '../repositories/repository-storages.ts';

const reporter = userCaller(51, 'reporter');
const access = new FakeIdentityAccess().add({ resource: 'project', id: 7, path: 'acme/app', levels: { 51: 20 } });
let harness: ServiceHarness<RunningService>;
let dataDir: string;
const shas: string[] = [];
let feature: string;

const get = (url: string) => harness.api.get(url).set(harness.as(reporter));

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'review-commit-reads-'));
  harness = await startServiceHarness({
    label: 'review_commit_reads',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users: new FixedUserDirectory([]) })),
  });
  expect((await get('/api/v4/projects/7/repository/branches')).status).toBe(200);
  const work = path.join(dataDir, 'work');
  await runGit(['init', '--quiet', '--initial-branch=main', work]);
  const commit = async (file: string, content: string, message: string) => {
    await writeFile(path.join(work, file), content);
    await runGit(['-C', work, 'add', file]);
    await runGit(['-C', work, '-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '--quiet', '-m', message]);
    return (await runGit(['-C', work, 'rev-parse', 'HEAD'])).stdout.trim();
  };
  shas.push(await commit('a.txt', 'one\n', 'First'));
  shas.push(
    await commit('b.txt', 'two\n', 'Second\n\nSigned-off-by: Ada <ada@example.com>\nCc: Bo <bo@example.com>\nCc: Cy <cy@example.com>'),
  );
  shas.push(await commit('a.txt', 'one\nmore\n', 'Third'));
  await runGit(['-C', work, 'tag', 'v1', shas[1]!]);
  await runGit(['-C', work, 'checkout', '--quiet', '-b', 'feature', shas[1]!]);
  feature = await commit('c.txt', 'three\n', 'Feature');
  await runGit(['-C', work, 'push', '--quiet', path.join(dataDir, 'repositories', hashedDiskPath(7)), 'main', 'feature', 'v1']);
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('GET /projects/:id/repository/commits', () => {
  it('lists the default branch newest first, in pages without totals, filtered by ref, path and dates', async () => {
    const all = await get('/api/v4/projects/7/repository/commits');
    expect(all.status).toBe(200);
    expect(all.body.map((commit: { id: string }) => commit.id)).toEqual([shas[2], shas[1], shas[0]]);
    for (const commit of all.body) expect(gitlabSchemaErrors('commit/basic.json', commit)).toEqual([]);
    const page = await get('/api/v4/projects/7/repository/commits?per_page=2');
    expect([page.body.length, page.headers['x-next-page'], page.headers['x-total']]).toEqual([2, '2', undefined]);
    expect((await get('/api/v4/projects/7/repository/commits?per_page=2&page=2')).headers['x-next-page']).toBe('');
    expect((await get('/api/v4/projects/7/repository/commits?ref_name=feature')).body.map((commit: { id: string }) => commit.id)).toEqual([
      feature,
      shas[1],
      shas[0],
    ]);
    expect((await get('/api/v4/projects/7/repository/commits?path=a.txt')).body.map((commit: { id: string }) => commit.id)).toEqual([
      shas[2],
      shas[0],
    ]);
    expect((await get('/api/v4/projects/7/repository/commits?all=true')).body).toHaveLength(4);
    expect((await get('/api/v4/projects/7/repository/commits?until=2000-01-01T00:00:00Z')).body).toEqual([]);
    expect((await get('/api/v4/projects/7/repository/commits?ref_name=nope')).body).toEqual([]);
  });

  it('adds stats and trailers when asked', async () => {
    const [third, second] = (await get('/api/v4/projects/7/repository/commits?with_stats=true&trailers=true&per_page=2')).body;
    expect(third.stats).toEqual({ additions: 1, deletions: 0, total: 1 });
    expect(second.trailers).toEqual({ 'Signed-off-by': 'Ada <ada@example.com>', Cc: 'Cy <cy@example.com>' });
    expect(second.extended_trailers).toEqual({
      'Signed-off-by': ['Ada <ada@example.com>'],
      Cc: ['Bo <bo@example.com>', 'Cy <cy@example.com>'],
    });
  });

  it('refuses refs that read as options and unknown orders with 400s', async () => {
    expect((await get('/api/v4/projects/7/repository/commits?ref_name=--output%3D%2Ftmp%2Fx')).status).toBe(400);
    expect((await get('/api/v4/projects/7/repository/commits?order=sideways')).status).toBe(400);
    expect((await get('/api/v4/projects/7/repository/commits?since=yesterday-ish')).status).toBe(400);
  });
});

describe('a commit: stats, diff and refs', () => {
  it('leaves stats out when stats=false', async () => {
    expect((await get(`/api/v4/projects/7/repository/commits/${shas[2]}`)).body.stats).toEqual({ additions: 1, deletions: 0, total: 1 });
    expect((await get(`/api/v4/projects/7/repository/commits/${shas[2]}?stats=false`)).body).not.toHaveProperty('stats');
  });

  it('answers its diff against its first parent (everything for a root commit), and 404 Commit Not Found', async () => {
    const diff = await get(`/api/v4/projects/7/repository/commits/${shas[2]}/diff`);
    expect(diff.body).toEqual([
      expect.objectContaining({
        old_path: 'a.txt',
        new_path: 'a.txt',
        diff: '@@ -1 +1,2 @@\n one\n+more\n',
        too_large: false,
        new_file: false,
      }),
    ]);
    expect((await get(`/api/v4/projects/7/repository/commits/${shas[0]}/diff`)).body).toEqual([
      expect.objectContaining({ new_path: 'a.txt', new_file: true, a_mode: '0', b_mode: '100644' }),
    ]);
    const missing = await get('/api/v4/projects/7/repository/commits/nope/diff');
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Commit Not Found' }]);
  });

  it('lists the branches and tags containing it', async () => {
    expect((await get(`/api/v4/projects/7/repository/commits/${shas[1]}/refs`)).body).toEqual([
      { type: 'branch', name: 'feature' },
      { type: 'branch', name: 'main' },
      { type: 'tag', name: 'v1' },
    ]);
    expect((await get(`/api/v4/projects/7/repository/commits/${shas[1]}/refs?type=tag`)).body).toEqual([{ type: 'tag', name: 'v1' }]);
    expect((await get(`/api/v4/projects/7/repository/commits/${shas[2]}/refs?type=branch`)).body).toEqual([
      { type: 'branch', name: 'main' },
    ]);
  });
});

describe('GET /projects/:id/repository/compare and /merge_base', () => {
  it('compares from the merge base, or straight, with GitLab fields', async () => {
    const compare = await get('/api/v4/projects/7/repository/compare?from=main&to=feature');
    expect(compare.status).toBe(200);
    expect(compare.body).toMatchObject({
      commit: { id: feature },
      commits: [{ id: feature }],
      diffs: [expect.objectContaining({ new_path: 'c.txt', new_file: true })],
      compare_timeout: false,
      compare_same_ref: false,
    });
    expect(compare.body.web_url).toMatch(/\/-\/compare\/main\.\.\.feature$/);
    const straight = await get('/api/v4/projects/7/repository/compare?from=main&to=feature&straight=true');
    expect(straight.body.diffs.map((diff: { new_path: string }) => diff.new_path)).toEqual(['a.txt', 'c.txt']);
    const same = await get('/api/v4/projects/7/repository/compare?from=main&to=main');
    expect(same.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true });
    const missing = await get('/api/v4/projects/7/repository/compare?from=main&to=nope');
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Ref Not Found' }]);
    expect((await get('/api/v4/projects/7/repository/compare?from=--all&to=main')).status).toBe(400);
  });

  it('finds the merge base of refs, with GitLab refusals', async () => {
    const base = await get('/api/v4/projects/7/repository/merge_base?refs[]=main&refs[]=feature');
    expect([base.status, base.body.id]).toEqual([200, shas[1]]);
    const one = await get('/api/v4/projects/7/repository/merge_base?refs[]=main');
    expect([one.status, one.body]).toEqual([400, { message: 'Provide at least 2 refs' }]);
    const unknown = await get('/api/v4/projects/7/repository/merge_base?refs[]=main&refs[]=nope&refs[]=gone');
    expect([unknown.status, unknown.body]).toEqual([400, { message: 'Could not find refs: nope, gone' }]);
  });
});
