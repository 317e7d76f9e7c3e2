/**
 * Environments and deployments against real PostgreSQL and Kafka (identity's access answers come
 * from a fake): GitLab's bodies, validated against its schemas, every list parameter, iids per
 * project, status transitions, who may do what, and the events in the outbox.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UnavailableError } from '@platform/errors';
import { FakeIdentityAccess } from '@platform/identity-client';
import { FakeProjectCommits, type ProjectCommits } from '@platform/review-client';
import { startService, type RunningService } from '@platform/service';
import { gitlabSchemaErrors, startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { deliveryService } from '../../main.ts';

const developer = userCaller(31, 'dev');
const reporter = userCaller(32, 'reporter');
const stranger = userCaller(33, 'stranger');
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 7, path: 'acme/app', namespaceIds: [5], levels: { 31: 30, 32: 20 } })
  .add({ resource: 'project', id: 8, path: 'acme/other', namespaceIds: [5], levels: { 31: 30 } });
const deployed = 'a'.repeat(40);
const repositories = new FakeProjectCommits()
  .add(7, { main: deployed, 'v1.0': deployed, 'fix-login': deployed })
  .add(8, { main: deployed });
/** Review's answers, or its absence while `reviewDown` is set. */
let reviewDown = false;
const commits: ProjectCommits = {
  resolve: async (options) => {
    if (reviewDown) throw new UnavailableError('UNAVAILABLE: No connection established');
    return repositories.resolve(options);
  },
  branchesContaining: (options) => repositories.branchesContaining(options),
  close: () => repositories.close(),
};
let harness: ServiceHarness<RunningService>;

beforeAll(async () => {
  harness = await startServiceHarness({
    label: 'delivery_deployments',
    env: { KAFKA_TOPIC_PREFIX: `delivery-test-${randomUUID()}.` },
    start: (env) => startService(deliveryService(readConfig(env), { identityAccess: access, projectCommits: commits })),
  });
});

afterAll(() => harness?.stop());

const deploy = (project: number, body: Record<string, unknown>, caller = developer) =>
  harness.api
    .post(`/api/v4/projects/${project}/deployments`)
    .set(harness.as(caller))
    .send({ sha: deployed, ref: 'main', tag: false, status: 'success', ...body });

describe('deployments', () => {
  it('records a deployment as GitLab shows it, creating its environment on the first one', async () => {
    const created = await deploy(7, { environment: 'production', ref: 'main', status: 'running' });
    expect(created.status).toBe(201);
    expect(gitlabSchemaErrors('deployment.json', created.body)).toEqual([]);
    expect(created.body).toMatchObject({
      iid: 1,
      ref: 'main',
      sha: deployed,
      status: 'running',
      deployable: null,
      user: { id: 31, username: 'dev', name: 'dev', state: 'active' },
      environment: { name: 'production', slug: 'production', external_url: null },
    });
    const environments = await harness.api.get('/api/v4/projects/7/environments').set(harness.as(reporter));
    expect(environments.body).toHaveLength(1);
    expect(environments.body[0]).toMatchObject({ name: 'production', tier: 'production', state: 'available' });
    expect(gitlabSchemaErrors('environment.json', environments.body[0])).toEqual([]);

    const events = await harness.outboxEvents('delivery.deployment.created');
    expect(events.at(-1)).toMatchObject({
      aggregateId: '7',
      actor: { id: 31, username: 'dev' },
      data: { projectId: 7, projectPath: 'acme/app', iid: 1, environmentName: 'production', status: 'running', ref: 'main' },
    });
    expect((await harness.outboxEvents('delivery.environment.created')).map((event) => event.data.name)).toContain('production');
  });

  it('counts iids per project and reuses the environment', async () => {
    const second = await deploy(7, { environment: 'production', ref: 'v1.0', tag: true });
    const other = await deploy(8, { environment: 'production' });
    expect(second.body.iid).toBe(2);
    expect(other.body.iid).toBe(1);
    expect(second.body.environment.id).not.toBe(other.body.environment.id);
    expect((await harness.api.get('/api/v4/projects/7/environments').set(harness.as(reporter))).body).toHaveLength(1);
  });

  it('filters and orders with every parameter of the list', async () => {
    await deploy(7, { environment: 'review/fix-login', ref: 'fix-login', status: 'failed' });
    const list = async (query: string) => {
      const response = await harness.api.get(`/api/v4/projects/7/deployments${query}`).set(harness.as(reporter));
      expect(response.status).toBe(200);
      for (const item of response.body) expect(gitlabSchemaErrors('deployment.json', item)).toEqual([]);
      return response;
    };
    const all = await list('');
    expect(all.body.map((item: { iid: number }) => item.iid)).toEqual([1, 2, 3]);
    expect(all.headers['x-total']).toBe('3');
    expect((await list('?sort=desc')).body.map((item: { iid: number }) => item.iid)).toEqual([3, 2, 1]);
    expect((await list('?order_by=ref&sort=asc')).body.map((item: { ref: string }) => item.ref)).toEqual(['fix-login', 'main', 'v1.0']);
    expect((await list('?order_by=iid&sort=desc&per_page=1&page=2')).body.map((item: { iid: number }) => item.iid)).toEqual([2]);
    expect((await list('?environment=review/fix-login')).body.map((item: { iid: number }) => item.iid)).toEqual([3]);
    expect((await list('?environment=nowhere')).body).toEqual([]);
    expect((await list('?status=success')).body.map((item: { iid: number }) => item.iid)).toEqual([2]);
    const third = all.body[2] as { updated_at: string };
    expect((await list(`?order_by=updated_at&updated_after=${encodeURIComponent(third.updated_at)}`)).body).toEqual([]);
    expect((await list(`?order_by=updated_at&updated_before=${encodeURIComponent(third.updated_at)}`)).body).toHaveLength(2);

    const refused = await harness.api.get('/api/v4/projects/7/deployments?status=blocked').set(harness.as(reporter));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'status does not have a valid value' });
    expect((await harness.api.get('/api/v4/projects/7/deployments?order_by=sha').set(harness.as(reporter))).status).toBe(400);
  });

  it('moves a deployment through the statuses its state machine allows', async () => {
    const created = await deploy(7, { environment: 'staging', status: 'running' });
    const path = `/api/v4/projects/7/deployments/${created.body.id}`;
    const succeeded = await harness.api.put(path).set(harness.as(developer)).send({ status: 'success' });
    expect(succeeded.status).toBe(200);
    expect(succeeded.body.status).toBe('success');
    expect(gitlabSchemaErrors('deployment.json', succeeded.body)).toEqual([]);
    const again = await harness.api.put(path).set(harness.as(developer)).send({ status: 'running' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: { status: ['cannot transition via "run"'] } });
    expect((await harness.api.put(path).set(harness.as(developer)).send({ status: 'deployed' })).body).toEqual({
      error: 'status does not have a valid value',
    });
    expect((await harness.api.put(path).set(harness.as(developer)).send({})).body).toEqual({ error: 'status is missing' });
    const updated = await harness.outboxEvents('delivery.deployment.updated');
    expect(updated.at(-1)?.data).toMatchObject({ deploymentId: created.body.id, status: 'success' });
    expect(updated.at(-1)?.data.finishedAt).toEqual(expect.any(String));
    expect((await harness.api.get(path).set(harness.as(reporter))).body.status).toBe('success');
  });

  it('lets one of two concurrent status changes of a running deployment through, and refuses the other', async () => {
    const created = await Promise.all(Array.from({ length: 8 }, () => deploy(8, { environment: 'racing', status: 'running' })));
    const answers = await Promise.all(
      created.map(async ({ body }) => {
        const path = `/api/v4/projects/8/deployments/${body.id}`;
        const [succeeded, failed] = await Promise.all(
          (['success', 'failed'] as const).map((status) => harness.api.put(path).set(harness.as(developer)).send({ status })),
        );
        const final = (await harness.api.get(path).set(harness.as(developer))).body.status;
        return { statuses: [succeeded!.status, failed!.status].sort(), final, winner: succeeded!.status === 200 ? 'success' : 'failed' };
      }),
    );
    for (const answer of answers) {
      expect(answer.statuses).toEqual([200, 400]);
      expect(answer.final).toBe(answer.winner);
    }
  });

  it('refuses what GitLab refuses', async () => {
    expect((await deploy(7, { environment: 'production', status: 'created' })).body).toEqual({
      error: 'status does not have a valid value',
    });
    expect((await deploy(7, { environment: undefined })).body).toEqual({ error: 'environment is missing' });
    expect((await deploy(7, { environment: 'production' }, reporter)).status).toBe(403);
    expect((await deploy(7, { environment: 'production' }, stranger)).status).toBe(404);
    expect((await harness.api.get('/api/v4/projects/7/deployments').set(harness.as(stranger))).status).toBe(404);
    expect((await harness.api.get('/api/v4/projects/7/deployments/424242').set(harness.as(reporter))).body).toEqual({
      message: '404 Deployment Not Found',
    });
    const other = (await harness.api.get('/api/v4/projects/8/deployments').set(harness.as(developer))).body as Array<{ id: number }>;
    expect((await harness.api.get(`/api/v4/projects/7/deployments/${other[0]!.id}`).set(harness.as(reporter))).status).toBe(404);
  });

  it('records only a sha and a ref that name commits of the repository, and nothing while review cannot say', async () => {
    const before = (await harness.api.get('/api/v4/projects/7/deployments').set(harness.as(reporter))).headers['x-total'];
    const eventsBefore = (await harness.outboxEvents('delivery.deployment.created')).length;
    const unknownSha = await deploy(7, { environment: 'canary', sha: 'f'.repeat(40) });
    expect(unknownSha.status).toBe(400);
    expect(unknownSha.body).toEqual({ message: { sha: ['The commit does not exist'] } });
    const unknownRef = await deploy(7, { environment: 'canary', ref: 'no-such-branch' });
    expect(unknownRef.status).toBe(400);
    expect(unknownRef.body).toEqual({ message: { ref: ['The branch or tag does not exist'] } });
    // The ref is judged first, as GitLab does.
    expect((await deploy(7, { environment: 'canary', ref: 'nowhere', sha: 'nothing' })).body).toEqual({
      message: { ref: ['The branch or tag does not exist'] },
    });
    // Another project's branch is no branch of this one.
    expect((await deploy(8, { environment: 'canary', ref: 'v1.0' })).status).toBe(400);

    reviewDown = true;
    try {
      const unchecked = await deploy(7, { environment: 'canary' });
      expect(unchecked.status).toBe(503);
      expect(unchecked.body).toEqual({ message: '503 Service Unavailable' });
    } finally {
      reviewDown = false;
    }

    expect((await harness.api.get('/api/v4/projects/7/deployments').set(harness.as(reporter))).headers['x-total']).toBe(before);
    expect((await harness.api.get('/api/v4/projects/7/environments?name=canary').set(harness.as(reporter))).body).toEqual([]);
    expect(await harness.outboxEvents('delivery.deployment.created')).toHaveLength(eventsBefore);
  });
});

describe('environments', () => {
  it('creates, shows, updates, stops and deletes an environment', async () => {
    const created = await harness.api
      .post('/api/v4/projects/7/environments')
      .set(harness.as(developer))
      .send({ name: 'review/new-ui', external_url: 'https://new-ui.example.com' });
    expect(created.status).toBe(201);
    expect(gitlabSchemaErrors('environment.json', created.body)).toEqual([]);
    expect(created.body).toMatchObject({ name: 'review/new-ui', tier: 'development', state: 'available' });
    expect(created.body.slug).toMatch(/^review-new-ui-[a-z0-9]{6}$/);
    const path = `/api/v4/projects/7/environments/${created.body.id}`;

    const shown = await harness.api.get(path).set(harness.as(reporter));
    expect(shown.body.last_deployment).toBeNull();
    expect(gitlabSchemaErrors('environment.json', shown.body)).toEqual([]);

    const updated = await harness.api.put(path).set(harness.as(developer)).send({ external_url: 'https://b.example.com', tier: 'staging' });
    expect(updated.body).toMatchObject({ external_url: 'https://b.example.com', tier: 'staging' });

    expect((await harness.api.delete(path).set(harness.as(developer))).status).toBe(403);
    const stopped = await harness.api.post(`${path}/stop`).set(harness.as(developer));
    expect(stopped.status).toBe(200);
    expect(stopped.body.state).toBe('stopped');
    expect((await harness.api.delete(path).set(harness.as(developer))).status).toBe(204);
    expect((await harness.api.get(path).set(harness.as(reporter))).body).toEqual({ message: '404 Environment Not Found' });
    for (const type of ['created', 'updated', 'stopped', 'deleted']) {
      expect((await harness.outboxEvents(`delivery.environment.${type}`)).map((event) => event.data.name)).toContain('review/new-ui');
    }
  });

  it('shows the last deployment of an environment', async () => {
    const list = await harness.api.get('/api/v4/projects/7/environments?name=production').set(harness.as(reporter));
    const shown = await harness.api.get(`/api/v4/projects/7/environments/${list.body[0].id}`).set(harness.as(reporter));
    expect(shown.body.last_deployment).toMatchObject({ iid: 2, ref: 'v1.0' });
    expect(gitlabSchemaErrors('environment.json', shown.body)).toEqual([]);
  });

  it('filters by name, search and state', async () => {
    const names = async (query: string) =>
      ((await harness.api.get(`/api/v4/projects/7/environments${query}`).set(harness.as(reporter))).body as Array<{ name: string }>).map(
        (environment) => environment.name,
      );
    expect(await names('?search=stag')).toEqual(['staging']);
    expect(await names('?name=staging')).toEqual(['staging']);
    expect(await names('?states=stopped')).toEqual([]);
    expect(await names('?states=available')).toEqual(['production', 'review/fix-login', 'staging']);
    const both = await harness.api.get('/api/v4/projects/7/environments?name=a&search=abc').set(harness.as(reporter));
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'name, search are mutually exclusive' });
  });

  it('refuses duplicate and malformed names, and callers below developer', async () => {
    const post = (body: Record<string, unknown>, caller = developer) =>
      harness.api.post('/api/v4/projects/7/environments').set(harness.as(caller)).send(body);
    const duplicate = await post({ name: 'production' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ message: { name: ['has already been taken'], slug: ['has already been taken'] } });
    expect((await post({ name: '/bad' })).status).toBe(400);
    expect((await post({ name: 'ok', external_url: 'javascript:alert(1)' })).status).toBe(400);
    expect((await post({ name: 'fine' }, reporter)).status).toBe(403);
  });
});
