/**
 * An external CI reporting commit statuses through the real gateway, and merge requests waiting for
 * them: delivery makes external pipelines of the statuses and publishes their events, review keeps
 * each merge request's head pipeline from them and merges a merge request set to merge when its
 * pipeline succeeds by itself once it does (a job on review's queue); a failing pipeline, a push to
 * the source branch and a cancellation unset it, and `only_allow_merge_if_pipeline_succeeds` holds
 * a merge back until the pipeline succeeded (or was skipped, where `allow_merge_on_skipped_pipeline`
 * lets it), each recorded as GitLab's system note; closing the merge request aborts the automatic
 * merge. A merge request lists its pipelines, and only who may update a protected branch posts its
 * statuses. One platform for the whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors, waitFor } from '@platform/testing';
import { createUserWithToken, createWorkDir, E2E_ROOT_TOKEN, type E2eUser, removeWorkDir, startTestPlatform } from './harness.ts';
import { gitRemote, gitCli, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
let clone: string;
let projectId: number;
let developer: E2eUser;
let reporter: E2eUser;
/** Merges: the default branch is protected, merged into by maintainers. */
let maintainer: E2eUser;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

let workGit: Git;
const git = (args: string[], cwd = clone) => workGit(args, cwd);

/** A new commit on `branch` (from main when it is new), pushed; answers its sha. */
async function pushCommit(branch: string, file: string): Promise<string> {
  const exists = (await git(['rev-parse', '--verify', '-q', `origin/${branch}`])).code === 0;
  expect((await git(['checkout', '-q', '-B', branch, exists ? `origin/${branch}` : 'origin/main'])).code).toBe(0);
  writeFileSync(path.join(clone, file), `${file}\n`);
  expect((await git(['add', file])).code).toBe(0);
  expect((await git(['commit', '-q', '-m', `Add ${file}`])).code).toBe(0);
  expect((await git(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`])).code).toBe(0);
  expect((await git(['fetch', '-q', 'origin'])).code).toBe(0);
  return (await git(['rev-parse', 'HEAD'])).output.trim();
}

/** The external CI: posts a status for `sha` as the developer (whose token it holds). */
async function report(sha: string, body: Record<string, unknown>) {
  const posted = await gateway.post(`/api/v4/projects/${projectId}/statuses/${sha}`).set(developer.headers).send(body);
  expect(posted.status).toBe(201);
  return posted.body as { id: number; pipeline_id: number; status: string };
}

async function openMergeRequest(branch: string): Promise<number> {
  const opened = await gateway
    .post(`/api/v4/projects/${projectId}/merge_requests`)
    .set(developer.headers)
    .send({ source_branch: branch, target_branch: 'main', title: `Ship ${branch}` });
  expect(opened.status).toBe(201);
  return opened.body.iid;
}

/** What the tests read of a merge request's single view. */
interface MergeRequestBody {
  state: string;
  sha: string;
  merge_when_pipeline_succeeds: boolean;
  head_pipeline: { id: number; sha: string; status: string; detailed_status?: unknown } | null;
  pipeline: { id: number; status: string } | null;
}

const mergeRequest = async (iid: number): Promise<MergeRequestBody> => {
  const found = await gateway.get(`/api/v4/projects/${projectId}/merge_requests/${iid}`).set(reporter.headers);
  expect(found.status).toBe(200);
  return found.body;
};

/** The merge request once `matches` holds of it (events travel through Kafka). */
const eventually = (iid: number, what: string, matches: (body: MergeRequestBody) => boolean) =>
  waitFor(
    async () => {
      const body = await mergeRequest(iid);
      return matches(body) ? body : undefined;
    },
    { what, timeoutMs: 30_000 },
  );

const merge = (iid: number, body: Record<string, unknown> = {}, headers = maintainer.headers) =>
  gateway.put(`/api/v4/projects/${projectId}/merge_requests/${iid}/merge`).set(headers).send(body);

beforeAll(async () => {
  work = createWorkDir('external-pipelines');
  workGit = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review', 'delivery'] });
  gateway = request(platform.url);
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Gated', path: 'gated', visibility: 'private' });
  expect(project.status).toBe(201);
  projectId = project.body.id;
  developer = await createUserWithToken(gateway, 'ci-developer', { memberships: [{ projectId, accessLevel: 30 }] });
  reporter = await createUserWithToken(gateway, 'ci-reporter', { memberships: [{ projectId, accessLevel: 20 }] });
  maintainer = await createUserWithToken(gateway, 'ci-maintainer', { memberships: [{ projectId, accessLevel: 40 }] });
  expect((await workGit(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, 'root/gated'), 'gated'])).code).toBe(0);
  clone = path.join(work, 'gated');
  writeFileSync(path.join(clone, 'README.md'), 'gated\n');
  expect((await git(['add', 'README.md'])).code).toBe(0);
  expect((await git(['commit', '-q', '-m', 'Start'])).code).toBe(0);
  expect((await git(['push', '-q', 'origin', 'HEAD:refs/heads/main'])).code).toBe(0);
  expect((await git(['fetch', '-q', 'origin'])).code).toBe(0);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  removeWorkDir(work);
});

describe('merge when pipeline succeeds', () => {
  it('merges a merge request by itself once the external CI turns its pipeline green', async () => {
    const head = await pushCommit('green', 'green.txt');
    const iid = await openMergeRequest('green');
    const pending = await report(head, { state: 'pending', ref: 'green', name: 'build', target_url: 'https://ci.example.com/1' });

    const waiting = await eventually(iid, 'the head pipeline', (body) => body.head_pipeline !== null);
    expect(gitlabSchemaErrors('merge_request.json', waiting)).toEqual([]);
    expect(waiting.head_pipeline).toMatchObject({
      id: pending.pipeline_id,
      sha: head,
      ref: 'green',
      status: 'pending',
      source: 'external',
    });
    expect(waiting.pipeline).toMatchObject({ id: pending.pipeline_id, status: 'pending' });
    const pipeline = await gateway.get(`/api/v4/projects/${projectId}/pipelines/${pending.pipeline_id}`).set(reporter.headers);
    expect(pipeline.body).toMatchObject({ status: 'pending', user: { username: 'ci-developer' } });
    // The merge request shows its head pipeline's status as the pipeline API does.
    expect(waiting.head_pipeline?.detailed_status).toEqual(pipeline.body.detailed_status);

    // A reporter may read it but not merge it, nor a developer into the protected main: GitLab's 401.
    for (const headers of [reporter.headers, developer.headers]) {
      expect(await merge(iid, { merge_when_pipeline_succeeds: true }, headers)).toMatchObject({
        status: 401,
        body: { message: '401 Unauthorized' },
      });
    }
    const armed = await merge(iid, { merge_when_pipeline_succeeds: true, should_remove_source_branch: true });
    expect(armed.status).toBe(200);
    expect(armed.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: 'ci-maintainer' } });

    await report(head, { state: 'running', ref: 'green', name: 'build' });
    expect((await mergeRequest(iid)).state).toBe('opened');
    await report(head, { state: 'success', ref: 'green', name: 'build' });
    const merged = await eventually(iid, 'the merge', (body) => body.state === 'merged');
    expect(merged).toMatchObject({ merged_by: { username: 'ci-maintainer' }, head_pipeline: { status: 'success' } });
    const branches = await gateway.get(`/api/v4/projects/${projectId}/repository/branches`).set(reporter.headers);
    expect(branches.body.map((branch: { name: string }) => branch.name)).toEqual(['main']);
    const statuses = await gateway.get(`/api/v4/projects/${projectId}/repository/commits/${head}/statuses`).set(reporter.headers);
    expect(statuses.body).toMatchObject([{ name: 'build', status: 'success', target_url: 'https://ci.example.com/1' }]);
  });

  it('is unset by a failing pipeline, a push and a cancellation; the project setting holds merges back until green', async () => {
    const settings = await gateway.put(`/api/v4/projects/${projectId}`).set(asRoot).send({ only_allow_merge_if_pipeline_succeeds: true });
    expect(settings.status).toBe(200);
    const first = await pushCommit('gated', 'gated.txt');
    let head = first;
    const iid = await openMergeRequest('gated');
    // No pipeline: nothing to wait for, and the project merges only once one succeeded.
    expect(await merge(iid, { merge_when_pipeline_succeeds: true })).toMatchObject({
      status: 405,
      body: { message: '405 Method Not Allowed' },
    });
    expect((await merge(iid)).status).toBe(405);

    await report(head, { state: 'running', ref: 'gated' });
    await eventually(iid, 'the running pipeline', (body) => body.head_pipeline?.status === 'running');
    expect((await merge(iid)).status).toBe(405);
    expect((await merge(iid, { auto_merge: true })).body.merge_when_pipeline_succeeds).toBe(true);
    const listed = await gateway.get(`/api/v4/projects/${projectId}/merge_requests?source_branch=gated`).set(reporter.headers);
    expect(listed.body).toMatchObject([{ iid, merge_when_pipeline_succeeds: true }]);
    const cancel = () =>
      gateway.post(`/api/v4/projects/${projectId}/merge_requests/${iid}/cancel_merge_when_pipeline_succeeds`).set(maintainer.headers);
    const canceled = await cancel();
    expect(canceled.status).toBe(201);
    expect(canceled.body.merge_when_pipeline_succeeds).toBe(false);
    expect((await cancel()).status).toBe(406);

    // A push to the source branch unsets it.
    expect((await merge(iid, { merge_when_pipeline_succeeds: true })).status).toBe(200);
    head = await pushCommit('gated', 'pushed.txt');
    await eventually(iid, 'the push to unset it', (body) => body.sha === head && body.merge_when_pipeline_succeeds === false);

    // So does a failing pipeline. Setting it again while it is set records nothing new.
    await report(head, { state: 'running', ref: 'gated' });
    await eventually(iid, 'the new head pipeline', (body) => body.head_pipeline?.sha === head);
    for (let time = 0; time < 2; time += 1)
      expect((await merge(iid, { merge_when_pipeline_succeeds: true })).body.merge_when_pipeline_succeeds).toBe(true);
    await report(head, { state: 'failed', ref: 'gated' });
    const failed = await eventually(iid, 'the failure to unset it', (body) => body.merge_when_pipeline_succeeds === false);
    expect(failed).toMatchObject({ state: 'opened', head_pipeline: { status: 'failed' } });
    expect((await merge(iid)).status).toBe(405);

    // The CI retries and passes: the merge goes through.
    await report(head, { state: 'success', ref: 'gated' });
    await eventually(iid, 'the green pipeline', (body) => body.head_pipeline?.status === 'success');
    const merged = await merge(iid);
    expect(merged.status).toBe(200);
    expect(merged.body.state).toBe('merged');

    // Each setting, cancellation and abort is GitLab's system note; an abort by the user who set it.
    const notes = await gateway
      .get(`/api/v4/projects/${projectId}/merge_requests/${iid}/notes?sort=asc&order_by=created_at`)
      .set(reporter.headers);
    expect(notes.status).toBe(200);
    const autoMergeNotes = (notes.body as Array<{ body: string; system: boolean; author: { username: string } }>)
      .filter((note) => note.body.includes('automatic merge'))
      .map((note) => ({ body: note.body, system: note.system, author: note.author.username }));
    const byMaintainer = (body: string) => ({ body, system: true, author: 'ci-maintainer' });
    expect(autoMergeNotes).toEqual([
      byMaintainer(`enabled an automatic merge when the pipeline for ${first} succeeds`),
      byMaintainer('canceled the automatic merge'),
      byMaintainer(`enabled an automatic merge when the pipeline for ${first} succeeds`),
      byMaintainer('aborted the automatic merge because source branch was updated'),
      byMaintainer(`enabled an automatic merge when the pipeline for ${head} succeeds`),
      byMaintainer('aborted the automatic merge because pipeline did not succeed'),
    ]);
  });
});

describe('merge request pipelines, skipped pipelines, closing and protected branches', () => {
  it("lists a merge request's pipelines at the heads it had, newest first", async () => {
    const first = await pushCommit('listed', 'listed.txt');
    const iid = await openMergeRequest('listed');
    const atFirst = await report(first, { state: 'success', ref: 'listed' });
    const second = await pushCommit('listed', 'listed-again.txt');
    const atSecond = await report(second, { state: 'running', ref: 'listed' });
    await eventually(iid, 'the second head pipeline', (body) => body.head_pipeline?.id === atSecond.pipeline_id);

    const listed = await gateway.get(`/api/v4/projects/${projectId}/merge_requests/${iid}/pipelines`).set(reporter.headers);
    expect(listed.status).toBe(200);
    expect(listed.headers['x-total']).toBe('2');
    expect(listed.body.map((pipeline: { id: number }) => pipeline.id)).toEqual([atSecond.pipeline_id, atFirst.pipeline_id]);
    for (const pipeline of listed.body) expect(gitlabSchemaErrors('pipeline/basic.json', pipeline)).toEqual([]);
    expect(listed.body[0]).toMatchObject({ project_id: projectId, sha: second, ref: 'listed', status: 'running', source: 'external' });
    expect(listed.body[0].web_url).toMatch(new RegExp(`/root/gated/-/pipelines/${atSecond.pipeline_id}$`));
  });

  it('merges past a skipped pipeline only once the project allows merging on skipped pipelines', async () => {
    // The project merges only once the pipeline succeeded (set above).
    const head = await pushCommit('skipping', 'skipping.txt');
    const iid = await openMergeRequest('skipping');
    await report(head, { state: 'skipped', ref: 'skipping' });
    await eventually(iid, 'the skipped pipeline', (body) => body.head_pipeline?.status === 'skipped');
    expect((await merge(iid)).status).toBe(405);
    const allowed = await gateway.put(`/api/v4/projects/${projectId}`).set(asRoot).send({ allow_merge_on_skipped_pipeline: true });
    expect(allowed.body).toMatchObject({ only_allow_merge_if_pipeline_succeeds: true, allow_merge_on_skipped_pipeline: true });
    const merged = await merge(iid);
    expect(merged.status).toBe(200);
    expect(merged.body.state).toBe('merged');
  });

  it('aborts the automatic merge when the merge request is closed, by the user who closed it', async () => {
    const head = await pushCommit('closing', 'closing.txt');
    const iid = await openMergeRequest('closing');
    await report(head, { state: 'running', ref: 'closing' });
    await eventually(iid, 'the running pipeline', (body) => body.head_pipeline?.status === 'running');
    expect((await merge(iid, { merge_when_pipeline_succeeds: true })).body.merge_when_pipeline_succeeds).toBe(true);
    const closed = await gateway
      .put(`/api/v4/projects/${projectId}/merge_requests/${iid}`)
      .set(developer.headers)
      .send({ state_event: 'close' });
    expect(closed.body).toMatchObject({ state: 'closed', merge_when_pipeline_succeeds: false });
    await report(head, { state: 'success', ref: 'closing' });
    const passed = await eventually(iid, 'the green pipeline', (body) => body.head_pipeline?.status === 'success');
    expect(passed.state).toBe('closed');
    const notes = await gateway
      .get(`/api/v4/projects/${projectId}/merge_requests/${iid}/notes?sort=asc&order_by=created_at`)
      .set(reporter.headers);
    const aborted = (notes.body as Array<{ body: string; system: boolean; author: { username: string } }>).filter((note) =>
      note.body.startsWith('aborted the automatic merge'),
    );
    expect(aborted.map((note) => [note.body, note.system, note.author.username])).toEqual([
      ['aborted the automatic merge because merge request was closed', true, 'ci-developer'],
    ]);
  });

  it('takes the statuses of a protected branch only from who may push to it or merge into it', async () => {
    const head = (await git(['rev-parse', 'origin/main'])).output.trim();
    const post = (headers: Record<string, string>) =>
      gateway.post(`/api/v4/projects/${projectId}/statuses/${head}`).set(headers).send({ state: 'success', ref: 'main', name: 'deploy' });
    // The default branch is protected: maintainers push and merge there, developers do not.
    expect(await post(developer.headers)).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await post(maintainer.headers)).toMatchObject({ status: 201, body: { ref: 'main', status: 'success', name: 'deploy' } });
  });
});
