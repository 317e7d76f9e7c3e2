/**
 * What a deployment shipped, through the real gateway: merge requests merged with real git between
 * two deployments of an environment, listed by delivery (which asks review over gRPC) and found by
 * review's merge request lists through the deployment events delivery publishes to Kafka.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, waitFor } from '@platform/testing';
import { createUserWithToken, createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
let clone: string;
let projectId: number;
let reporter: Record<string, string>;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

/** Git with the work directory as HOME, in the clone unless told. */
let workGit: Git;
const git = (args: string[], cwd = clone) => workGit(args, cwd);

async function commitAndPush(file: string, branch: string): Promise<string> {
  writeFileSync(path.join(clone, file), `${file}\n`);
  expect((await git(['add', file])).code).toBe(0);
  expect((await git(['commit', '-q', '-m', `Add ${file}`])).code).toBe(0);
  expect((await git(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`])).code).toBe(0);
  return (await git(['rev-parse', 'HEAD'])).output.trim();
}

/** Opens a merge request of a new branch with one commit, merges it into main, and answers it as merged. */
async function mergedMergeRequest(branch: string): Promise<{ iid: number; id: number; merge_commit_sha: string }> {
  expect((await git(['checkout', '-q', '-B', branch, 'origin/main'])).code).toBe(0);
  await commitAndPush(`${branch}.txt`, branch);
  const opened = await gateway
    .post(`/api/v4/projects/${projectId}/merge_requests`)
    .set(asRoot)
    .send({ source_branch: branch, target_branch: 'main', title: `Ship ${branch}` });
  expect(opened.status).toBe(201);
  const merged = await gateway.put(`/api/v4/projects/${projectId}/merge_requests/${opened.body.iid}/merge`).set(asRoot);
  expect(merged.status).toBe(200);
  expect((await git(['fetch', '-q', 'origin'])).code).toBe(0);
  return merged.body;
}

async function deploy(sha: string, environment = 'production'): Promise<{ id: number }> {
  const created = await gateway
    .post(`/api/v4/projects/${projectId}/deployments`)
    .set(asRoot)
    .send({ environment, sha, ref: 'main', tag: false, status: 'success' });
  expect(created.status).toBe(201);
  return created.body;
}

const iidsOf = (body: Array<{ iid: number }>) => body.map((mergeRequest) => mergeRequest.iid).sort();

beforeAll(async () => {
  work = createWorkDir('deploy-mr');
  workGit = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review', 'delivery'] });
  gateway = request(platform.url);
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Shipping', path: 'shipping', visibility: 'private' });
  expect(project.status).toBe(201);
  projectId = project.body.id;
  reporter = (await createUserWithToken(gateway, 'ship-reporter', { name: 'Reporter', memberships: [{ projectId, accessLevel: 20 }] }))
    .headers;
  expect((await workGit(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'root/shipping'), 'shipping'])).code).toBe(0);
  clone = path.join(work, 'shipping');
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('the merge requests a deployment shipped', () => {
  let first: { iid: number };
  let second: { iid: number };
  let firstDeployment: { id: number };
  let secondDeployment: { id: number };
  let between: string;

  it('lists exactly the merge requests merged since the environment’s previous successful deployment', async () => {
    await commitAndPush('README.md', 'main');
    first = await mergedMergeRequest('first');
    const shaA = (await git(['rev-parse', 'origin/main'])).output.trim();
    firstDeployment = await deploy(shaA);
    // A failed deployment in between is no previous deployment.
    const failed = await gateway
      .post(`/api/v4/projects/${projectId}/deployments`)
      .set(asRoot)
      .send({ environment: 'production', sha: shaA, ref: 'main', tag: false, status: 'failed' });
    expect(failed.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    between = new Date().toISOString();
    second = await mergedMergeRequest('second');
    // Opened, never merged: shipped by no deployment.
    expect((await git(['checkout', '-q', '-B', 'third', 'origin/main'])).code).toBe(0);
    await commitAndPush('third.txt', 'third');
    expect(
      (
        await gateway
          .post(`/api/v4/projects/${projectId}/merge_requests`)
          .set(asRoot)
          .send({ source_branch: 'third', target_branch: 'main', title: 'Not yet' })
      ).status,
    ).toBe(201);
    const shaB = (await git(['rev-parse', 'origin/main'])).output.trim();
    secondDeployment = await deploy(shaB);

    const shipped = await gateway.get(`/api/v4/projects/${projectId}/deployments/${secondDeployment.id}/merge_requests`).set(reporter);
    expect(shipped.status).toBe(200);
    expect(iidsOf(shipped.body)).toEqual([second.iid]);
    expect(shipped.headers['x-total']).toBe('1');
    for (const mergeRequest of shipped.body) expect(gitlabSchemaErrors('merge_request.json', mergeRequest)).toEqual([]);
    expect(shipped.body[0]).toMatchObject({ state: 'merged', target_branch: 'main', source_branch: 'second', project_id: projectId });

    // The environment's first deployment shipped everything merged before it.
    const initial = await gateway.get(`/api/v4/projects/${projectId}/deployments/${firstDeployment.id}/merge_requests`).set(reporter);
    expect(iidsOf(initial.body)).toEqual([first.iid]);
    // A deployment of the same commit to another environment ships both there.
    const staging = await deploy(shaB, 'staging');
    const toStaging = await gateway.get(`/api/v4/projects/${projectId}/deployments/${staging.id}/merge_requests`).set(reporter);
    expect(iidsOf(toStaging.body)).toEqual([first.iid, second.iid].sort());
  }, 120_000);

  it('takes the merge request list parameters', async () => {
    const base = `/api/v4/projects/${projectId}/deployments`;
    expect((await gateway.get(`${base}/${secondDeployment.id}/merge_requests?state=opened`).set(reporter)).body).toEqual([]);
    const staging = (await gateway.get(`${base}?environment=staging`).set(reporter)).body[0];
    const paged = await gateway.get(`${base}/${staging.id}/merge_requests?order_by=title&sort=desc&per_page=1&page=2`).set(reporter);
    expect(paged.status).toBe(200);
    expect(paged.body.map((mergeRequest: { title: string }) => mergeRequest.title)).toEqual(['Ship first']);
    expect(paged.headers).toMatchObject({ 'x-total': '2', 'x-page': '2', 'x-per-page': '1' });
    const simple = await gateway.get(`${base}/${staging.id}/merge_requests?view=simple&sort=asc`).set(reporter);
    expect(Object.keys(simple.body[0]).sort()).toEqual([
      'created_at',
      'description',
      'id',
      'iid',
      'project_id',
      'references',
      'state',
      'title',
      'updated_at',
      'web_url',
    ]);
    expect((await gateway.get(`${base}/${staging.id}/merge_requests?state=nonsense`).set(reporter)).status).toBe(400);
    expect((await gateway.get(`${base}/999999/merge_requests`).set(reporter)).status).toBe(404);
    expect((await gateway.get(`${base}/${staging.id}/merge_requests`)).status).toBe(401);
  });

  it('filters the merge request lists by environment and deployment time, from delivery’s deployment events', async () => {
    const list = (query: string) => gateway.get(`/api/v4/projects/${projectId}/merge_requests?${query}`).set(reporter);
    const production = await waitFor(
      async () => {
        const found = await list('environment=production');
        return found.body.length === 2 ? found : undefined;
      },
      { timeoutMs: 60_000, what: 'both merge requests deployed to production' },
    );
    expect(iidsOf(production.body)).toEqual([first.iid, second.iid].sort());
    expect(iidsOf((await list(`environment=production&deployed_after=${encodeURIComponent(between)}`)).body)).toEqual([second.iid]);
    expect(iidsOf((await list(`deployed_before=${encodeURIComponent(between)}`)).body)).toEqual([first.iid]);
    expect((await list('environment=review%2Fnowhere')).body).toEqual([]);
    const everywhere = await gateway
      .get(`/api/v4/merge_requests?scope=all&environment=production&deployed_after=${encodeURIComponent(between)}`)
      .set(asRoot);
    expect(iidsOf(everywhere.body)).toEqual([second.iid]);
  }, 90_000);
});
