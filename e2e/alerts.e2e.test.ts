/**
 * Alerts through the real gateway: integrations configured with a personal access token (and
 * audited), alert intake authenticated by the integration's key alone (no user token), incidents
 * among issues, and a real Prometheus Alertmanager delivering firing and resolved alerts to the Prometheus
 * endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { startAlertmanager, type RunningAlertmanager } from './alertmanager.ts';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

let platform: RunningPlatform;
let gateway: ReturnType<typeof request>;
let alertmanager: RunningAlertmanager | undefined;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

async function createProject(path: string): Promise<{ id: number; path: string }> {
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: path, path, visibility: 'private' });
  expect(project.status).toBe(201);
  return { id: project.body.id as number, path: project.body.path_with_namespace as string };
}

async function createIntegration(projectId: number, body: Record<string, unknown>): Promise<{ id: number; url: string; token: string }> {
  const created = await gateway.post(`/api/v4/projects/${projectId}/alert_management/http_integrations`).set(asRoot).send(body);
  expect(created.status).toBe(201);
  return created.body;
}

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['identity', 'alerts', 'audit'] });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  await alertmanager?.stop();
  await platform?.stop();
});

describe('alert intake through the gateway', () => {
  it('takes a payload with the integration key as Bearer, refuses a wrong key, and opens an incident', async () => {
    const project = await createProject('monitored');
    const integration = await createIntegration(project.id, { name: 'Generic' });
    expect(integration.url).toBe(`${platform.url}/root/monitored/alerts/notify/generic/${integration.url.split('/').pop()}`);
    const path = new URL(integration.url).pathname;

    const refused = await gateway.post(path).set('Authorization', 'Bearer not-the-key').send({ title: 'Refused' });
    expect(refused.status).toBe(401);
    // A personal access token is no integration key.
    expect((await gateway.post(path).set('Authorization', `Bearer ${E2E_ROOT_TOKEN}`).send({ title: 'Refused' })).status).toBe(401);
    const accepted = await gateway
      .post(path)
      .set('Authorization', `Bearer ${integration.token}`)
      .send({
        title: 'Checkout errors',
        severity: 'medium',
        hosts: 'web-1',
        fingerprint: ['checkout', 5],
        labels: { team: { name: 'payments' } },
      });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({});
    const missing = await gateway.post(path).set('Authorization', `Bearer ${integration.token}`).send({ severity: 'low' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'title is missing' });

    const alerts = await gateway.get(`/api/v4/projects/${project.id}/alert_management/alerts`).set(asRoot);
    expect(alerts.status).toBe(200);
    expect(alerts.body).toMatchObject([
      { title: 'Checkout errors', severity: 'medium', hosts: ['web-1'], payload: { labels: { team: { name: 'payments' } } } },
    ]);
    const incidents = await gateway.get(`/api/v4/projects/${encodeURIComponent(project.path)}/issues?issue_type=incident`).set(asRoot);
    expect(incidents.status).toBe(200);
    expect(incidents.body).toMatchObject([{ title: 'Checkout errors', issue_type: 'incident', state: 'opened' }]);
    expect((await gateway.get(`/api/v4/projects/${project.id}/alert_management/alerts`)).status).toBe(404);

    const reset = await gateway
      .post(`/api/v4/projects/${project.id}/alert_management/http_integrations/${integration.id}/reset_token`)
      .set(asRoot);
    expect(reset.status).toBe(200);
    expect((await gateway.post(path).set('Authorization', `Bearer ${integration.token}`).send({ title: 'Old key' })).status).toBe(401);
    const audited = await waitFor(
      async () => {
        const events = await gateway.get(`/api/v4/projects/${project.id}/audit_events`).set(asRoot);
        // The integration's events only: the project's own (project_created, member_created) carry no message.
        const names = (events.body as Array<{ event_name: string; details: { custom_message?: string } }>)
          .filter((event) => event.event_name.startsWith('alert_integration_'))
          .map((event) => event.details.custom_message);
        return names.length >= 2 ? names : undefined;
      },
      { timeoutMs: 30_000, what: "the integration's audit events" },
    );
    expect(audited).toEqual([
      "Reset the authorization key of alert integration HTTP endpoint 'Generic'",
      "Created alert integration HTTP endpoint 'Generic'",
    ]);
  });
});

describe('a real Alertmanager', () => {
  it('delivers firing and resolved alerts to the Prometheus endpoint', async () => {
    const project = await createProject('prometheus-monitored');
    const integration = await createIntegration(project.id, { name: 'Alertmanager', type: 'prometheus' });
    alertmanager = await startAlertmanager({ webhookUrl: integration.url, bearerKey: integration.token });
    const alert = {
      labels: { alertname: 'DiskFull', severity: 'warning', instance: 'db-1:9100', job: 'node' },
      annotations: { title: 'Disk almost full on db-1', description: 'Less than 5% left' },
      startsAt: new Date(Date.now() - 60_000).toISOString(),
    };
    await alertmanager.push([alert]);
    const alertsPath = `/api/v4/projects/${project.id}/alert_management/alerts`;
    const [firing] = await waitFor(
      async () => {
        const listed = await gateway.get(alertsPath).set(asRoot);
        return listed.body.length > 0 ? (listed.body as Array<Record<string, unknown>>) : undefined;
      },
      { timeoutMs: 30_000, what: 'Alertmanager to deliver the firing alert' },
    );
    expect(firing).toMatchObject({
      title: 'Disk almost full on db-1',
      description: 'Less than 5% left',
      severity: 'low',
      status: 'triggered',
      monitoring_tool: 'Prometheus',
      service: 'node',
      hosts: ['db-1:9100'],
      payload: { labels: { alertname: 'DiskFull' }, status: 'firing' },
      incident: { state: 'opened' },
    });

    await alertmanager.push([{ ...alert, endsAt: new Date().toISOString() }]);
    const resolved = await waitFor(
      async () => {
        const single = await gateway.get(`${alertsPath}/${firing?.iid}`).set(asRoot);
        return single.body.status === 'resolved' ? single.body : undefined;
      },
      { timeoutMs: 30_000, what: 'Alertmanager to deliver the resolution' },
    );
    expect(resolved).toMatchObject({ ended_at: expect.any(String), incident: { state: 'closed' } });
  }, 90_000);
});
