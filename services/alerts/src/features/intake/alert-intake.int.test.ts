/**
 * Integrations, intake, grouping, resolution and incidents of the alerts service on its own
 * against real PostgreSQL and Kafka (identity's answers come from fakes), in the paid tier and
 * in the free one.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { anonymousCaller } from '@platform/auth';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { gitlabSchemaErrors, startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { alertsService } from '../../main.ts';
import { FakeProjectLookup } from '../../testing/fake-project-lookup.ts';

const maintainer = userCaller(31, 'maintainer');
const developer = userCaller(32, 'developer');
const reporter = userCaller(33, 'reporter');
const stranger = userCaller(34, 'stranger');
const levels = { 31: 40, 32: 30, 33: 20 };
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 7, path: 'acme/app', levels })
  .add({ resource: 'project', id: 8, path: 'acme/free', levels })
  .add({ resource: 'project', id: 9, path: 'acme/other', levels });
const projects = new FakeProjectLookup({ 'acme/app': 7, 'acme/free': 8, 'acme/other': 9 });
const anonymous = anonymousCaller();

async function startAlerts(tier: 'free' | 'premium') {
  return startServiceHarness({
    label: `alerts_${tier}`,
    env: { KAFKA_TOPIC_PREFIX: `alerts-test-${randomUUID()}.`, ALERTS_TIER: tier, EXTERNAL_URL: 'http://gitlab.test' },
    start: (env) => startService(alertsService(readConfig(env), { identityAccess: access, projects })),
  });
}

let premium: ServiceHarness<RunningService>;
let free: ServiceHarness<RunningService>;

beforeAll(async () => {
  premium = await startAlerts('premium');
  free = await startAlerts('free');
});

afterAll(async () => {
  await premium?.stop();
  await free?.stop();
});

async function createIntegration(harness: ServiceHarness<RunningService>, projectId: number, body: Record<string, unknown>) {
  const response = await harness.api
    .post(`/api/v4/projects/${projectId}/alert_management/http_integrations`)
    .set(harness.as(maintainer))
    .send(body);
  return response;
}

/** Posts a payload to an intake URL (as the gateway forwards it: an anonymous caller, the key untouched). */
function notify(harness: ServiceHarness<RunningService>, url: string, key: string | undefined, payload: unknown) {
  const path = new URL(url).pathname;
  const request = harness.api.post(path).set(harness.as(anonymous)).set('Content-Type', 'application/json');
  if (key) request.set('Authorization', `Bearer ${key}`);
  return typeof payload === 'string' ? request.send(payload) : request.send(payload as object);
}

async function alertCount(harness: ServiceHarness<RunningService>, projectId: number): Promise<number> {
  const [row] = await harness.sql<{ count: number }>('select count(*)::int as count from alerts where project_id = $1', [projectId]);
  return row?.count ?? 0;
}

describe('HTTP integrations', () => {
  it('are configured by maintainers: the key shows on create and reset only and is stored hashed', async () => {
    const created = await createIntegration(premium, 7, { name: 'Grafana alerts' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Grafana alerts',
      type: 'http',
      active: true,
      url: expect.stringMatching(/^http:\/\/gitlab\.test\/acme\/app\/alerts\/notify\/grafana-alerts\/[0-9a-f]{16}\.json$/),
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const stored = await premium.sql<{ token_digest: string }>('select token_digest from alert_integrations where id = $1', [
      created.body.id,
    ]);
    expect(stored[0]?.token_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]?.token_digest).not.toContain(created.body.token);

    const listed = await premium.api.get('/api/v4/projects/7/alert_management/http_integrations').set(premium.as(maintainer));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([{ ...created.body, token: undefined }].map(({ token: _token, ...rest }) => rest));

    const reset = await premium.api
      .post(`/api/v4/projects/7/alert_management/http_integrations/${created.body.id}/reset_token`)
      .set(premium.as(maintainer));
    expect(reset.status).toBe(200);
    expect(reset.body.token).toMatch(/^[0-9a-f]{32}$/);
    expect(reset.body.token).not.toBe(created.body.token);
    expect(await notify(premium, created.body.url, created.body.token, { title: 'old key' }).then((r) => r.status)).toBe(401);
    expect(await notify(premium, created.body.url, reset.body.token, { title: 'new key' }).then((r) => r.status)).toBe(200);

    expect((await premium.outboxEvents('alerts.integration.created')).map((event) => event.data)).toContainEqual({
      integration: {
        projectId: 7,
        integrationId: created.body.id,
        name: 'Grafana alerts',
        type: 'http',
        active: true,
        projectPath: 'acme/app',
      },
    });
    expect(await premium.outboxEvents('alerts.integration.token_reset')).toHaveLength(1);
  });

  it('refuse developers (403), strangers (404) and bad input (400)', async () => {
    const path = '/api/v4/projects/7/alert_management/http_integrations';
    expect((await premium.api.get(path).set(premium.as(developer))).status).toBe(403);
    expect((await premium.api.post(path).set(premium.as(developer)).send({ name: 'x' })).status).toBe(403);
    expect((await premium.api.get(path).set(premium.as(stranger))).status).toBe(404);
    const missing = await premium.api.post(path).set(premium.as(maintainer)).send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing' });
    const badType = await premium.api.post(path).set(premium.as(maintainer)).send({ name: 'x', type: 'email' });
    expect(badType.status).toBe(400);
    expect((await premium.api.delete(`${path}/999999`).set(premium.as(maintainer))).status).toBe(404);
  });

  it('let one of the HTTP endpoint and the Prometheus endpoint be active: activating the other kind is 422 naming the active one', async () => {
    const http = await createIntegration(premium, 9, { name: 'Generic' });
    const prometheus = await createIntegration(premium, 9, { name: 'Prometheus', type: 'prometheus' });
    expect(prometheus.status).toBe(422);
    expect(prometheus.body).toEqual({ message: expect.stringContaining("'Generic'") });
    const inactive = await createIntegration(premium, 9, { name: 'Prometheus', type: 'prometheus', active: false });
    expect(inactive.status).toBe(201);
    expect(inactive.body.url).toBe('http://gitlab.test/acme/other/prometheus/alerts/notify.json');
    const path = `/api/v4/projects/9/alert_management/http_integrations/${inactive.body.id}`;
    const activated = await premium.api.put(path).set(premium.as(maintainer)).send({ active: true });
    expect(activated.status).toBe(422);
    expect(activated.body.message).toContain("'Generic'");
    // Nothing was deactivated silently.
    const listed = await premium.api.get('/api/v4/projects/9/alert_management/http_integrations').set(premium.as(maintainer));
    expect(listed.body.map((integration: { active: boolean }) => integration.active)).toEqual([true, false]);

    await premium.api
      .put(`/api/v4/projects/9/alert_management/http_integrations/${http.body.id}`)
      .set(premium.as(maintainer))
      .send({ active: false });
    const now = await premium.api.put(path).set(premium.as(maintainer)).send({ active: true, name: 'Alertmanager' });
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ name: 'Alertmanager', active: true, type: 'prometheus' });
    expect((await createIntegration(premium, 9, { name: 'Second', type: 'prometheus', active: false })).status).toBe(422);

    const deleted = await premium.api
      .delete(`/api/v4/projects/9/alert_management/http_integrations/${http.body.id}`)
      .set(premium.as(maintainer));
    expect(deleted.status).toBe(204);
    expect(await premium.outboxEvents('alerts.integration.deleted')).toHaveLength(1);
  });
});

describe('alert intake (paid tier)', () => {
  let url: string;
  let key: string;

  beforeAll(async () => {
    const created = await createIntegration(premium, 7, { name: 'Intake' });
    url = created.body.url;
    key = created.body.token;
  });

  it('records an alert with every field, extra properties kept, and opens an incident', async () => {
    const payload = {
      title: 'Disk full on db-1',
      description: 'The data volume has 0 bytes left',
      start_time: '2026-11-24T10:00:00Z',
      service: 'postgres',
      monitoring_tool: 'Grafana',
      hosts: ['db-1', 'db-2'],
      severity: 'HIGH',
      fingerprint: 'disk-full-db-1',
      svc_environment_name: 'production',
      runbook: { url: 'https://runbooks.test/disk', steps: [1, 2, { nested: { deeper: true } }] },
      tags: ['storage', 'pager'],
    };
    const response = await notify(premium, url, key, payload);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({});

    const listed = await premium.api.get('/api/v4/projects/7/alert_management/alerts?search=disk').set(premium.as(reporter));
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toEqual({
      id: expect.any(Number),
      iid: expect.any(Number),
      title: 'Disk full on db-1',
      description: 'The data volume has 0 bytes left',
      severity: 'high',
      status: 'triggered',
      events: 1,
      started_at: '2026-11-24T10:00:00.000Z',
      ended_at: null,
      fingerprint: 'disk-full-db-1',
      monitoring_tool: 'Grafana',
      service: 'postgres',
      hosts: ['db-1', 'db-2'],
      environment: 'production',
      payload,
      incident: { iid: expect.any(Number), title: 'Disk full on db-1', state: 'opened' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const single = await premium.api.get(`/api/v4/projects/7/alert_management/alerts/${listed.body[0].iid}`).set(premium.as(reporter));
    expect(single.body).toEqual(listed.body[0]);
    expect((await premium.outboxEvents('alerts.alert.triggered')).map((event) => event.data)).toContainEqual(
      expect.objectContaining({ title: 'Disk full on db-1', severity: 'high', fingerprint: 'disk-full-db-1', source: 'http' }),
    );
    expect((await premium.outboxEvents('alerts.incident.opened')).map((event) => event.data)).toContainEqual(
      expect.objectContaining({ title: 'Disk full on db-1', alertIid: listed.body[0].iid }),
    );
  });

  it('defaults start_time to receipt and severity to critical, and hashes an array fingerprint', async () => {
    const before = Date.now();
    expect((await notify(premium, url, key, { title: 'Defaults', severity: 'catastrophic', fingerprint: ['a', ['b', 1]] })).status).toBe(
      200,
    );
    const [alert] = (await premium.api.get('/api/v4/projects/7/alert_management/alerts?search=Defaults').set(premium.as(reporter))).body;
    expect(alert.severity).toBe('critical');
    expect(new Date(alert.started_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(alert.fingerprint).toMatch(/^[0-9a-f]{40}$/);
    expect(alert.hosts).toEqual([]);
  });

  it('refuses bad payloads and keys with nothing recorded', async () => {
    const count = await alertCount(premium, 7);
    const missing = await notify(premium, url, key, { description: 'no title' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'title is missing' });
    const invalid = await notify(premium, url, key, '{"title": "broken');
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: expect.any(String) });
    const oversized = await notify(premium, url, key, { title: 'big', blob: 'x'.repeat(1024 * 1024) });
    expect(oversized.status).toBe(413);
    const wrongKey = await notify(premium, url, 'f'.repeat(32), { title: 'wrong key' });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body).toEqual({ message: '401 Unauthorized' });
    expect((await notify(premium, url, undefined, { title: 'no key' })).status).toBe(401);
    expect((await notify(premium, 'http://x/acme/nothing/alerts/notify.json', key, { title: 'no project' })).status).toBe(404);
    expect(
      (await notify(premium, url.replace(/[0-9a-f]{16}\.json$/, '0000000000000000.json'), key, { title: 'unknown endpoint' })).status,
    ).toBe(404);
    expect(await alertCount(premium, 7)).toBe(count);
  });

  it('refuses an inactive integration with 401', async () => {
    const created = await createIntegration(premium, 7, { name: 'Paused', active: false });
    const count = await alertCount(premium, 7);
    expect((await notify(premium, created.body.url, created.body.token, { title: 'paused' })).status).toBe(401);
    expect(await alertCount(premium, 7)).toBe(count);
  });

  it('groups equal payloads (start_time and hosts aside) and equal fingerprints; end_time resolves and closes the incident', async () => {
    const payload = { title: 'CPU high', service: 'api', details: { load: [9, 8, 7] } };
    await notify(premium, url, key, { ...payload, start_time: '2026-11-24T11:00:00Z', hosts: 'web-1' });
    await notify(premium, url, key, { ...payload, start_time: '2026-11-24T11:05:00Z', hosts: ['web-2'] });
    await notify(premium, url, key, { ...payload, details: { load: [1] } });
    const cpu = (
      await premium.api.get('/api/v4/projects/7/alert_management/alerts?search=CPU&order_by=iid&sort=asc').set(premium.as(reporter))
    ).body;
    expect(cpu.map((alert: { events: number }) => alert.events)).toEqual([2, 1]);
    expect(cpu[0].hosts).toEqual(['web-1']);

    await notify(premium, url, key, { title: 'Queue stuck', fingerprint: 'queue-1' });
    await notify(premium, url, key, { title: 'Queue still stuck', fingerprint: 'queue-1' });
    await notify(premium, url, key, { title: 'Queue fine', fingerprint: 'queue-1', end_time: '2026-11-24T12:00:00Z' });
    const queue = (await premium.api.get('/api/v4/projects/7/alert_management/alerts?search=Queue').set(premium.as(reporter))).body;
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({ title: 'Queue stuck', events: 2, status: 'resolved', ended_at: '2026-11-24T12:00:00.000Z' });
    expect(queue[0].incident.state).toBe('closed');
    expect((await premium.outboxEvents('alerts.alert.resolved')).map((event) => event.data)).toContainEqual(
      expect.objectContaining({ title: 'Queue stuck', endedAt: '2026-11-24T12:00:00.000Z' }),
    );
    expect((await premium.outboxEvents('alerts.incident.closed')).length).toBeGreaterThan(0);

    // The matching alert is resolved: the next occurrence starts a new alert.
    await notify(premium, url, key, { title: 'Queue stuck again', fingerprint: 'queue-1' });
    const again = (
      await premium.api.get('/api/v4/projects/7/alert_management/alerts?search=Queue&status=triggered').set(premium.as(reporter))
    ).body;
    expect(again).toMatchObject([{ title: 'Queue stuck again', events: 1, status: 'triggered', incident: { state: 'opened' } }]);
    // An end time with no open alert to resolve records nothing.
    const count = await alertCount(premium, 7);
    await notify(premium, url, key, { title: 'Never opened', fingerprint: 'nothing-open', end_time: '2026-11-24T12:00:00Z' });
    expect(await alertCount(premium, 7)).toBe(count);
  });

  it('lets developers change an alert status; resolving closes the incident', async () => {
    await notify(premium, url, key, { title: 'Status flow', fingerprint: 'status-flow' });
    const [alert] = (await premium.api.get('/api/v4/projects/7/alert_management/alerts?search=Status%20flow').set(premium.as(reporter)))
      .body;
    const path = `/api/v4/projects/7/alert_management/alerts/${alert.iid}`;
    expect((await premium.api.put(path).set(premium.as(reporter)).send({ status: 'acknowledged' })).status).toBe(403);
    const bad = await premium.api.put(path).set(premium.as(developer)).send({ status: 'done' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'status does not have a valid value' });
    const acknowledged = await premium.api.put(path).set(premium.as(developer)).send({ status: 'acknowledged' });
    expect(acknowledged.body).toMatchObject({ status: 'acknowledged', ended_at: null, incident: { state: 'opened' } });
    const resolved = await premium.api.put(path).set(premium.as(developer)).send({ status: 'resolved' });
    expect(resolved.body).toMatchObject({ status: 'resolved', ended_at: expect.any(String), incident: { state: 'closed' } });
    expect((await premium.api.get('/api/v4/projects/7/alert_management/alerts/99999').set(premium.as(reporter))).status).toBe(404);
    expect((await premium.api.get('/api/v4/projects/7/alert_management/alerts').set(premium.as(stranger))).status).toBe(404);
  });

  it('lists incidents, also as issues of type incident, in GitLab issue shape', async () => {
    const incidents = await premium.api.get('/api/v4/projects/7/alert_management/incidents').set(premium.as(reporter));
    expect(incidents.status).toBe(200);
    expect(incidents.body.length).toBeGreaterThan(3);
    // GitLab's schema types closed_at as a date only, though GitLab answers null for an open issue.
    for (const { closed_at: closedAt, ...incident } of incidents.body) {
      expect(gitlabSchemaErrors('issue.json', closedAt === null ? incident : { ...incident, closed_at: closedAt })).toEqual([]);
    }
    expect(incidents.body[0]).toMatchObject({ issue_type: 'incident', type: 'INCIDENT', project_id: 7 });
    const closed = await premium.api.get('/api/v4/projects/7/issues?issue_type=incident&state=closed').set(premium.as(reporter));
    expect(closed.status).toBe(200);
    expect(closed.body.length).toBeGreaterThan(0);
    expect(closed.body.every((incident: { state: string }) => incident.state === 'closed')).toBe(true);
    expect((await premium.api.get('/api/v4/projects/7/issues?issue_type=issue').set(premium.as(reporter))).status).toBe(400);
  });

  it('tests an integration with a sample payload that must be valid JSON (developers)', async () => {
    const [integration] = (await premium.api.get('/api/v4/projects/7/alert_management/http_integrations').set(premium.as(maintainer))).body;
    const path = `/api/v4/projects/7/alert_management/http_integrations/${integration.id}/test`;
    expect((await premium.api.post(path).set(premium.as(reporter)).send({ payload: '{"title":"x"}' })).status).toBe(403);
    const invalid = await premium.api.post(path).set(premium.as(developer)).send({ payload: '{not json' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'payload must be valid JSON' });
    const untitled = await premium.api.post(path).set(premium.as(developer)).send({ payload: '{"severity":"low"}' });
    expect(untitled.body).toEqual({ error: 'title is missing' });
    const tested = await premium.api
      .post(path)
      .set(premium.as(developer))
      .type('form')
      .send({ payload: '{"title":"Sample alert","severity":"low"}' });
    expect(tested.status).toBe(200);
    const [alert] = (await premium.api.get('/api/v4/projects/7/alert_management/alerts?search=Sample').set(premium.as(reporter))).body;
    expect(alert).toMatchObject({ title: 'Sample alert', severity: 'low' });
    const triggered = await premium.outboxEvents('alerts.alert.triggered');
    expect(triggered.find((event) => event.data.title === 'Sample alert')?.actor).toMatchObject({ id: developer.userId });
  });
});

describe('alert intake (free tier)', () => {
  it('has one generic endpoint per project and opens an alert per payload', async () => {
    const created = await createIntegration(free, 8, { name: 'Generic' });
    expect(created.status).toBe(201);
    expect(created.body.url).toBe('http://gitlab.test/acme/free/alerts/notify.json');
    const second = await createIntegration(free, 8, { name: 'Second' });
    expect(second.status).toBe(422);
    expect(second.body).toEqual({ message: 'Multiple HTTP integrations are not supported for this project' });

    const payload = { title: 'Free alert', fingerprint: 'free-1' };
    expect((await notify(free, created.body.url, created.body.token, payload)).status).toBe(200);
    expect((await notify(free, created.body.url, created.body.token, payload)).status).toBe(200);
    const listed = (await free.api.get('/api/v4/projects/8/alert_management/alerts').set(free.as(reporter))).body;
    expect(listed.map((alert: { events: number }) => alert.events)).toEqual([1, 1]);
    // The paid tier's identified endpoints do not exist here.
    expect((await notify(free, 'http://x/acme/free/alerts/notify/generic/0123456789abcdef.json', created.body.token, payload)).status).toBe(
      404,
    );
    // Resolution is not a paid feature.
    await notify(free, created.body.url, created.body.token, { ...payload, end_time: '2026-11-24T12:00:00Z' });
    const statuses = (
      await free.api.get('/api/v4/projects/8/alert_management/alerts?order_by=iid&sort=asc').set(free.as(reporter))
    ).body.map((alert: { status: string }) => alert.status);
    expect(statuses).toEqual(['triggered', 'resolved']);
  });
});
