/**
 * The foundation slice through the real gateway: every process separate, real PostgreSQL and Kafka.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { Gitlab } from '@gitbeaker/rest';
import { CALLER_HEADER, signCaller } from '@platform/auth';
import type { RunningPlatform } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';
import { loadRouteCatalogue } from './route-catalogue.ts';
import { MATRIX_ENTRIES } from './permission-matrix.ts';

/** Prometheus's credentials for `/-/metrics`, which nobody else may read. */
const METRICS_TOKEN = 'e2e-metrics-token-0001';
let platform: RunningPlatform;
let gateway: ReturnType<typeof request>;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

beforeAll(async () => {
  platform = await startTestPlatform({ env: { METRICS_TOKEN } });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

async function createUser(username: string) {
  const response = await gateway
    .post('/api/v4/users')
    .set(asRoot)
    .send({ email: `${username}@example.com`, name: `User ${username}`, username, password: 'a-long-enough-password' });
  expect(response.status).toBe(201);
  const token = await gateway
    .post(`/api/v4/users/${response.body.id}/personal_access_tokens`)
    .set(asRoot)
    .send({ name: 'e2e', scopes: ['api'] });
  expect(token.status).toBe(201);
  return { id: response.body.id as number, token: token.body.token as string };
}

describe('authentication at the gateway', () => {
  it('answers GET /user for the root token, sent either way GitLab accepts', async () => {
    const viaHeader = await gateway.get('/api/v4/user').set(asRoot);
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body).toMatchObject({ id: 1, username: 'root', is_admin: true });
    const viaBearer = await gateway.get('/api/v4/user').set('Authorization', `Bearer ${E2E_ROOT_TOKEN}`);
    expect(viaBearer.body.username).toBe('root');
  });

  it('answers 401 to a bad token and to no token where one is needed', async () => {
    const bad = await gateway.get('/api/v4/user').set('PRIVATE-TOKEN', 'glpat-not-a-real-token');
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ message: '401 Unauthorized' });
    const none = await gateway.get('/api/v4/user');
    expect(none.status).toBe(401);
  });

  it('lets an administrator act as another user with sudo, and nobody else', async () => {
    const ada = await createUser('e2e-ada');
    const asAda = await gateway.get('/api/v4/user').set(asRoot).set('Sudo', 'e2e-ada');
    expect(asAda.body).toMatchObject({ id: ada.id, username: 'e2e-ada' });
    expect(asAda.body).not.toHaveProperty('is_admin');
    const byQuery = await gateway.get(`/api/v4/user?sudo=${ada.id}`).set(asRoot);
    expect(byQuery.body.username).toBe('e2e-ada');
    const notAdmin = await gateway.get('/api/v4/user').set('PRIVATE-TOKEN', ada.token).set('Sudo', 'root');
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
  });

  it('enforces token scopes end to end: sudo needs the sudo scope, read_api cannot write', async () => {
    const admin = await gateway.post('/api/v4/users').set(asRoot).send({
      email: 'e2e-scoped@example.com',
      name: 'Scoped Admin',
      username: 'e2e-scoped',
      password: 'a-long-enough-password',
      admin: true,
    });
    expect(admin.status).toBe(201);
    const tokenWith = async (scopes: string[]) =>
      (await gateway.post(`/api/v4/users/${admin.body.id}/personal_access_tokens`).set(asRoot).send({ name: 'e2e', scopes })).body
        .token as string;
    const apiOnly = await tokenWith(['api']);
    const sudoWithoutScope = await gateway.get('/api/v4/user').set('PRIVATE-TOKEN', apiOnly).set('Sudo', 'root');
    expect(sudoWithoutScope.status).toBe(403);
    expect(sudoWithoutScope.body).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'sudo',
    });
    const readApi = await tokenWith(['read_api']);
    expect((await gateway.get('/api/v4/users').set('PRIVATE-TOKEN', readApi)).status).toBe(200);
    const write = await gateway.post('/api/v4/users/1/block').set('PRIVATE-TOKEN', readApi);
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
  });

  it('refuses a forged caller header sent straight to a service', async () => {
    const forged = signCaller(
      { kind: 'user', userId: 1, username: 'root', name: 'Administrator', isAdmin: true, scopes: ['api'] },
      'not-the-internal-secret',
      { method: 'GET', path: '/api/v4/user' },
    );
    const direct = await request(platform.serviceUrls.identity!).get('/api/v4/user').set(CALLER_HEADER, forged);
    expect(direct.status).toBe(401);
    const unsigned = await request(platform.serviceUrls.audit!).get('/api/v4/audit_events');
    expect(unsigned.status).toBe(401);
  });

  it('does not let a client smuggle its own caller header through the gateway', async () => {
    const response = await gateway.get('/api/v4/user').set(
      CALLER_HEADER,
      signCaller({ kind: 'user', userId: 1, username: 'root', name: 'x', isAdmin: true, scopes: ['api'] }, 'guess', {
        method: 'GET',
        path: '/api/v4/user',
      }),
    );
    expect(response.status).toBe(401);
  });
});

describe('users through the gateway', () => {
  it('creates a user and shows it in the administrator and public views', async () => {
    const grace = await createUser('e2e-grace');
    const asAdmin = await gateway.get(`/api/v4/users/${grace.id}`).set(asRoot);
    expect(asAdmin.body).toMatchObject({ username: 'e2e-grace', email: 'e2e-grace@example.com', is_admin: false });
    const other = await createUser('e2e-other');
    const asUser = await gateway.get(`/api/v4/users/${grace.id}`).set('PRIVATE-TOKEN', other.token);
    expect(asUser.status).toBe(200);
    expect(asUser.body.username).toBe('e2e-grace');
    expect(asUser.body).not.toHaveProperty('email');
  });

  it('records the creation as an audit event, delivered through Kafka', async () => {
    const hopper = await createUser('e2e-hopper');
    // The user's creation, and the creation of the token createUser gives them.
    const events = await waitFor(
      async () => {
        const response = await gateway.get(`/api/v4/audit_events?entity_type=User&entity_id=${hopper.id}`).set(asRoot);
        return response.body.length >= 2 ? response : undefined;
      },
      { what: 'the audit events of the new user and their token' },
    );
    expect(events.headers['x-total']).toBe('2');
    expect(events.body.map((item: { event_name: string }) => item.event_name).sort()).toEqual([
      'personal_access_token_created',
      'user_created',
    ]);
    const created = events.body.find((item: { event_name: string }) => item.event_name === 'user_created');
    expect(created).toMatchObject({
      author_id: 1,
      entity_id: hopper.id,
      entity_type: 'User',
      details: { add: 'user', author_name: 'Administrator', entity_path: 'e2e-hopper', target_type: 'User', target_details: 'e2e-hopper' },
    });
    const single = await gateway.get(`/api/v4/audit_events/${created.id}`).set(asRoot);
    expect(single.body).toEqual(created);
    const forbidden = await gateway.get('/api/v4/audit_events').set('PRIVATE-TOKEN', hopper.token);
    expect(forbidden.status).toBe(403);
  });

  it('works with the @gitbeaker/rest client unchanged', async () => {
    const api = new Gitlab({ host: platform.url, token: E2E_ROOT_TOKEN });
    const me = await api.Users.showCurrentUser();
    expect(me.username).toBe('root');
    const created = await api.Users.create({
      email: 'e2e-beaker@example.com',
      name: 'Beaker',
      username: 'e2e-beaker',
      password: 'a-long-enough-password',
    });
    const shown = await api.Users.show(created.id);
    expect(shown.username).toBe('e2e-beaker');
  });
});

describe('the gateway itself', () => {
  it('reports health, readiness of every service, and Prometheus metrics', async () => {
    expect((await gateway.get('/-/health')).status).toBe(200);
    const readiness = await gateway.get('/-/readiness');
    expect(readiness.status).toBe(200);
    expect(readiness.body.services).toEqual({
      identity: 'ok',
      audit: 'ok',
      review: 'ok',
      packages: 'ok',
      admin: 'ok',
      alerts: 'ok',
      delivery: 'ok',
      hooks: 'ok',
    });
    // Loopback callers need no token (e2e/metrics.e2e.test.ts covers the others).
    expect((await gateway.get('/-/metrics')).status).toBe(200);
    const metrics = await gateway.get('/-/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(metrics.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="[^"]*users[^"]*",status="200",service="identity"\} \d+/,
    );
  });

  it('routes every path of the route catalogue to a service that serves it', async () => {
    const unserved: string[] = [];
    for (const route of await loadRouteCatalogue()) {
      // Path parameters become `1`: the route answers, even if only that no such thing exists. A
      // route served for some queries only (incidents among issues) gets the query it needs.
      const query = MATRIX_ENTRIES[`${route.method} ${route.path}`]?.query;
      const path = `${route.path.replace(/:[a-z_]+/g, '1')}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;
      const response = await gateway[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](path);
      if (response.status >= 500 || (response.status === 404 && response.body?.error === '404 Not Found')) {
        unserved.push(`${route.method} ${route.path}: ${response.status}`);
      }
    }
    expect(unserved).toEqual([]);
  });

  it('answers 404 for paths no service owns', async () => {
    const response = await gateway.get('/api/v4/nothing-here').set(asRoot);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: '404 Not Found' });
  });
});

describe('the API document', () => {
  it('GET /api/v4/openapi.json lists every route of the route catalogue, merged from every service (all of them run here)', async () => {
    const response = await gateway.get('/api/v4/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const document = response.body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    const catalogue = await loadRouteCatalogue();
    const missing = catalogue
      .filter((route) => !document.paths[route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')]?.[route.method.toLowerCase()])
      .map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
    // A path two services serve in part (incidents among issues) is one operation of the document.
    const operations = new Set(catalogue.map((route) => `${route.method} ${route.path}`));
    expect(Object.values(document.paths).flatMap((pathOperations) => Object.keys(pathOperations))).toHaveLength(operations.size);
  });
});
