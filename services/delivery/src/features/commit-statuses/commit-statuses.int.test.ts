/**
 * Commit statuses and the external pipelines they make, against real PostgreSQL and Kafka
 * (identity's and review's answers come from fakes): GitLab's bodies, its state transitions and
 * refusals, statuses retried by newer ones, the pipeline's status following its latest statuses,
 * the lists' filters and orders, who may do what, the events in the outbox, and reads that hydrate
 * no entity.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { FakeBranchUpdates, FakeProjectCommits } from '@platform/review-client';
import { startService, type RunningService } from '@platform/service';
import { countHydrations, gitlabSchemaErrors, startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { deliveryService } from '../../main.ts';

const developer = userCaller(41, 'ci-bot');
const reporter = userCaller(42, 'reader');
const guest = userCaller(43, 'guest');
const maintainer = userCaller(44, 'releaser');
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 17, path: 'acme/ci', namespaceIds: [5], levels: { 41: 30, 42: 20, 43: 10 } })
  .add({ resource: 'project', id: 18, path: 'acme/public', namespaceIds: [5], isPublic: true, levels: { 41: 30 } })
  .add({ resource: 'project', id: 19, path: 'acme/released', namespaceIds: [5], levels: { 41: 30, 44: 40 } });
const head = 'b'.repeat(40);
const other = 'c'.repeat(40);
const lonely = 'd'.repeat(40);
const commits = new FakeProjectCommits()
  .add(17, { main: head, feature: other })
  .add(17, { [lonely]: lonely })
  .add(18, { main: head })
  .add(19, { release: head, feature: head });
/** Project 19's `release` is protected: only its maintainer pushes or merges there. */
const branchUpdates = new FakeBranchUpdates().protect(19, 'release', [44]);
let harness: ServiceHarness<RunningService>;

beforeAll(async () => {
  harness = await startServiceHarness({
    label: 'delivery_commit_statuses',
    env: { KAFKA_TOPIC_PREFIX: `delivery-test-${randomUUID()}.` },
    start: (env) => startService(deliveryService(readConfig(env), { identityAccess: access, projectCommits: commits, branchUpdates })),
  });
});

afterAll(() => harness?.stop());

const post = (sha: string, body: Record<string, unknown>, options: { project?: number; caller?: typeof developer } = {}) =>
  harness.api
    .post(`/api/v4/projects/${options.project ?? 17}/statuses/${sha}`)
    .set(harness.as(options.caller ?? developer))
    .send(body);

const statuses = (sha: string, query: Record<string, unknown> = {}, caller = reporter) =>
  harness.api.get(`/api/v4/projects/17/repository/commits/${sha}/statuses`).query(query).set(harness.as(caller));

describe('posting commit statuses', () => {
  it('creates a status on the branch holding the commit, in a new external pipeline', async () => {
    const created = await post(head, { state: 'pending' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      sha: head,
      ref: 'main',
      status: 'pending',
      name: 'default',
      target_url: null,
      description: null,
      coverage: null,
      allow_failure: false,
      started_at: null,
      finished_at: null,
      author: { id: 41, username: 'ci-bot' },
    });
    const pipeline = await harness.api.get(`/api/v4/projects/17/pipelines/${created.body.pipeline_id}`).set(harness.as(reporter));
    expect(pipeline.status).toBe(200);
    expect(gitlabSchemaErrors('pipeline/detail.json', pipeline.body)).toEqual([]);
    expect(pipeline.body).toMatchObject({
      id: created.body.pipeline_id,
      iid: 1,
      project_id: 17,
      sha: head,
      ref: 'main',
      status: 'pending',
      source: 'external',
      before_sha: '0'.repeat(40),
      tag: false,
      user: { id: 41, username: 'ci-bot' },
      started_at: null,
      finished_at: null,
      duration: null,
      coverage: null,
      web_url: `http://localhost/acme/ci/-/pipelines/${created.body.pipeline_id}`,
      detailed_status: { group: 'pending', label: 'pending', details_path: `/acme/ci/-/pipelines/${created.body.pipeline_id}` },
    });
    const events = await harness.outboxEvents('delivery.pipeline.created');
    expect(events.at(-1)).toMatchObject({
      aggregateId: '17',
      actor: { id: 41, username: 'ci-bot' },
      data: { pipelineId: created.body.pipeline_id, sha: head, ref: 'main', status: 'pending', version: 1 },
    });
  });

  it('moves the same status on, and the pipeline with it, until it finishes', async () => {
    const running = await post(head, { state: 'running', ref: 'main', description: 'tests', target_url: 'https://ci.example.com/1' });
    expect(running.status).toBe(201);
    expect(running.body).toMatchObject({ status: 'running', description: 'tests', target_url: 'https://ci.example.com/1' });
    expect(running.body.started_at).not.toBeNull();

    const again = await post(head, { state: 'running', ref: 'main', description: 'changed' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      message: 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")',
    });

    const passed = await post(head, { state: 'success', ref: 'main', coverage: 80 });
    expect(passed.status).toBe(201);
    expect(passed.body).toMatchObject({ id: running.body.id, status: 'success', description: 'tests', coverage: 80 });
    const pipeline = await harness.api.get(`/api/v4/projects/17/pipelines/${passed.body.pipeline_id}`).set(harness.as(reporter));
    expect(pipeline.body).toMatchObject({ status: 'success', coverage: '80.00', detailed_status: { text: 'Passed', label: 'passed' } });
    expect(pipeline.body.finished_at).not.toBeNull();
    expect(typeof pipeline.body.duration).toBe('number');
    const updates = await harness.outboxEvents('delivery.pipeline.updated');
    expect(updates.map((event) => [event.data.previousStatus, event.data.status])).toEqual([
      ['pending', 'running'],
      ['running', 'success'],
    ]);
  });

  it('adds a new status once one finished, retrying the old one, and fails the pipeline with it', async () => {
    const failed = await post(head, { state: 'failed', ref: 'main', name: 'lint' });
    expect(failed.status).toBe(201);
    const retry = await post(head, { state: 'running', ref: 'main', context: 'lint' });
    expect(retry.status).toBe(201);
    expect(retry.body.id).not.toBe(failed.body.id);
    expect(retry.body.pipeline_id).toBe(failed.body.pipeline_id);

    const latest = await statuses(head);
    expect(latest.status).toBe(200);
    expect(latest.body.map((status: { name: string; status: string }) => [status.name, status.status])).toEqual([
      ['default', 'success'],
      ['lint', 'running'],
    ]);
    const all = await statuses(head, { all: true, sort: 'desc' });
    expect(all.body.map((status: { id: number }) => status.id)).toEqual([retry.body.id, failed.body.id, latest.body[0].id]);
    expect(all.headers['x-total']).toBe('3');
    expect((await statuses(head, { name: 'lint', all: 'true' })).body).toHaveLength(2);
    expect(await statuses(head, { order_by: 'name' })).toMatchObject({ status: 400 });

    const pipeline = await harness.api.get(`/api/v4/projects/17/pipelines/${retry.body.pipeline_id}`).set(harness.as(reporter));
    expect(pipeline.body.status).toBe('running');
    expect((await post(head, { state: 'failed', ref: 'main', name: 'lint' })).status).toBe(201);
    const dropped = await harness.api.get(`/api/v4/projects/17/pipelines/${retry.body.pipeline_id}`).set(harness.as(reporter));
    expect(dropped.body.status).toBe('failed');
  });

  it('keeps one pipeline per sha and ref, and a pipeline_id names one', async () => {
    const onFeature = await post(other, { state: 'success' });
    expect(onFeature.body.ref).toBe('feature');
    const onMain = await post(other, { state: 'skipped', ref: 'main' });
    expect(onMain.body.pipeline_id).not.toBe(onFeature.body.pipeline_id);
    const named = await post(other, { state: 'pending', name: 'deploy', pipeline_id: onFeature.body.pipeline_id });
    expect(named.body).toMatchObject({ pipeline_id: onFeature.body.pipeline_id, ref: 'feature' });
    expect(await post(other, { state: 'pending', pipeline_id: 999_999 })).toMatchObject({
      status: 404,
      body: { message: '404 Pipeline for pipeline_id, sha and ref Not Found' },
    });
    const onlyMain = await statuses(other, { ref: 'main' });
    expect(onlyMain.body.map((status: { status: string }) => status.status)).toEqual(['skipped']);
    expect((await statuses(other, { pipeline_id: onFeature.body.pipeline_id })).body).toHaveLength(2);
    expect((await statuses(other, { stage: 'external' })).body).toHaveLength(3);
    expect((await statuses(other, { stage: 'test' })).body).toHaveLength(0);
  });

  it("answers GitLab's errors", async () => {
    expect(await post('f'.repeat(40), { state: 'running' })).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect(await post(lonely, { state: 'running' })).toMatchObject({
      status: 404,
      body: { message: '404 References for commit Not Found' },
    });
    expect((await post(head, { state: 'invalid' })).status).toBe(400);
    expect((await post(head, {})).status).toBe(400);
    expect(await post(head, { state: 'pending', target_url: 'git://example.com' })).toMatchObject({
      status: 400,
      body: { message: { target_url: ['is blocked: Only allowed schemes are http, https'] } },
    });
    expect(await post(head, { state: 'pending', target_url: 'invalid url' })).toMatchObject({ status: 400 });
    expect(await post(head, { state: 'running' }, { caller: reporter })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await post(head, { state: 'running' }, { caller: guest })).status).toBe(403);
    const anonymous = harness.as({ kind: 'anonymous' });
    expect((await harness.api.post(`/api/v4/projects/17/statuses/${head}`).set(anonymous).send({ state: 'running' })).status).toBe(401);
    expect((await statuses(head, {}, guest)).status).toBe(403);
    expect(await statuses('f'.repeat(40))).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    expect(await statuses(lonely)).toMatchObject({ status: 200, body: [] });
    expect((await harness.api.get(`/api/v4/projects/17/pipelines/999999`).set(harness.as(reporter))).status).toBe(404);
  });
});

describe('statuses on a protected branch', () => {
  it('are refused (403) to a caller who may neither push to it nor merge into it, and make no pipeline', async () => {
    expect(await post(head, { state: 'running', ref: 'release' }, { project: 19 })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    const listed = () => harness.api.get('/api/v4/projects/19/pipelines').set(harness.as(maintainer));
    expect((await listed()).body).toEqual([]);
    expect((await post(head, { state: 'running', ref: 'feature' }, { project: 19 })).status).toBe(201);
    const released = await post(head, { state: 'running', ref: 'release' }, { project: 19, caller: maintainer });
    expect(released).toMatchObject({ status: 201, body: { ref: 'release', author: { username: 'releaser' } } });
    expect((await listed()).body.map((pipeline: { ref: string }) => pipeline.ref)).toEqual(['release', 'feature']);
  });
});

describe('listing pipelines', () => {
  it('filters and orders them as GitLab does, reading no entity', async () => {
    await post(head, { state: 'running' }, { project: 18 });
    const hydrations = await countHydrations(async () => {
      const listed = await harness.api.get('/api/v4/projects/17/pipelines').set(harness.as(reporter));
      expect(listed.status).toBe(200);
      expect(listed.body.map((pipeline: { ref: string; sha: string }) => [pipeline.ref, pipeline.sha])).toEqual([
        ['main', other],
        ['feature', other],
        ['main', head],
      ]);
      for (const pipeline of listed.body) expect(gitlabSchemaErrors('pipeline/basic.json', pipeline)).toEqual([]);
      expect(listed.body[0]).toEqual({
        id: expect.any(Number),
        iid: 3,
        project_id: 17,
        sha: other,
        ref: 'main',
        status: 'skipped',
        source: 'external',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        web_url: expect.stringContaining('/acme/ci/-/pipelines/'),
      });
      const query = (parameters: Record<string, unknown>) =>
        harness.api.get('/api/v4/projects/17/pipelines').query(parameters).set(harness.as(reporter));
      expect((await query({ status: 'failed' })).body.map((pipeline: { sha: string }) => pipeline.sha)).toEqual([head]);
      expect((await query({ scope: 'finished', ref: 'main' })).body).toHaveLength(2);
      // A success and a pending status: GitLab's composite says running.
      expect((await query({ scope: 'running' })).body.map((pipeline: { ref: string }) => pipeline.ref)).toEqual(['feature']);
      expect((await query({ scope: 'pending' })).body).toEqual([]);
      expect((await query({ scope: 'branches' })).body.map((pipeline: { iid: number }) => pipeline.iid)).toEqual([3, 2]);
      expect((await query({ scope: 'tags' })).body).toEqual([]);
      expect((await query({ sha: head, username: 'ci-bot' })).body).toHaveLength(1);
      expect((await query({ order_by: 'ref', sort: 'asc' })).body.map((pipeline: { ref: string }) => pipeline.ref)).toEqual([
        'feature',
        'main',
        'main',
      ]);
      const paged = await query({ per_page: 1, page: 2 });
      expect(paged.body).toHaveLength(1);
      expect(paged.headers['x-total']).toBe('3');
      expect((await query({ scope: 'everything' })).status).toBe(400);
      expect((await query({ order_by: 'sha' })).status).toBe(400);
      await statuses(head, { all: true });
    });
    expect(hydrations).toBe(0);
    const anonymous = await harness.api.get('/api/v4/projects/18/pipelines').set(harness.as({ kind: 'anonymous' }));
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toHaveLength(1);
    expect((await harness.api.get('/api/v4/projects/17/pipelines').set(harness.as(guest))).status).toBe(403);
    expect((await harness.api.get('/api/v4/projects/17/pipelines').set(harness.as({ kind: 'anonymous' }))).status).toBe(404);
  });
});
