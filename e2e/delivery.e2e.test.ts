/**
 * Environments and deployments through the real gateway, with identity deciding who may do what:
 * developers record deployments, reporters read them, strangers see nothing, and the bodies are
 * GitLab's.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { gitlabSchemaErrors } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };
const tokens: Record<'developer' | 'reporter' | 'stranger', Record<string, string>> = { developer: {}, reporter: {}, stranger: {} };
let projectId: number;

async function userWithToken(username: string, level: number | undefined): Promise<Record<string, string>> {
  const user = await gateway
    .post('/api/v4/users')
    .set(asRoot)
    .send({ email: `${username}@example.com`, name: username, username, password: 'a-long-enough-password' });
  expect(user.status).toBe(201);
  if (level !== undefined) {
    const member = await gateway
      .post(`/api/v4/projects/${projectId}/members`)
      .set(asRoot)
      .send({ user_id: user.body.id, access_level: level });
    expect(member.status).toBe(201);
  }
  const token = await gateway
    .post(`/api/v4/users/${user.body.id}/personal_access_tokens`)
    .set(asRoot)
    .send({ name: 'e2e', scopes: ['api'] });
  expect(token.status).toBe(201);
  return { 'PRIVATE-TOKEN': token.body.token as string };
}

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['identity', 'delivery'] });
  gateway = request(platform.url);
  const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Shop', path: 'shop', visibility: 'private' });
  expect(project.status).toBe(201);
  projectId = project.body.id as number;
  tokens.developer = await userWithToken('delivery-dev', 30);
  tokens.reporter = await userWithToken('delivery-reporter', 20);
  tokens.stranger = await userWithToken('delivery-stranger', undefined);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

describe('environments and deployments through the gateway', () => {
  it('records deployments by developers and shows them to reporters', async () => {
    const created = await gateway
      .post(`/api/v4/projects/${projectId}/deployments`)
      .set(tokens.developer)
      .send({ environment: 'production', sha: 'b'.repeat(40), ref: 'main', tag: false, status: 'running' });
    expect(created.status).toBe(201);
    expect(gitlabSchemaErrors('deployment.json', created.body)).toEqual([]);
    expect(created.body).toMatchObject({
      iid: 1,
      status: 'running',
      user: { username: 'delivery-dev' },
      environment: { name: 'production' },
    });
    expect(created.body.user.web_url).toBe(`${platform.url}/delivery-dev`);

    const finished = await gateway
      .put(`/api/v4/projects/${projectId}/deployments/${created.body.id}`)
      .set(tokens.developer)
      .send({ status: 'success' });
    expect(finished.body.status).toBe('success');

    const listed = await gateway
      .get(`/api/v4/projects/${projectId}/deployments?environment=production&status=success`)
      .set(tokens.reporter);
    expect(listed.status).toBe(200);
    expect(listed.body.map((deployment: { id: number }) => deployment.id)).toEqual([created.body.id]);
    expect(listed.headers['x-total']).toBe('1');

    const environments = await gateway.get(`/api/v4/projects/${projectId}/environments`).set(tokens.reporter);
    expect(environments.body).toHaveLength(1);
    expect(gitlabSchemaErrors('environment.json', environments.body[0])).toEqual([]);
    const environment = await gateway.get(`/api/v4/projects/${projectId}/environments/${environments.body[0].id}`).set(tokens.reporter);
    expect(environment.body.last_deployment).toMatchObject({ id: created.body.id, status: 'success' });
  });

  it('refuses reporters writes, strangers everything, and anonymous callers a private project', async () => {
    const body = { environment: 'production', sha: 'c'.repeat(40), ref: 'main', tag: false, status: 'success' };
    expect((await gateway.post(`/api/v4/projects/${projectId}/deployments`).set(tokens.reporter).send(body)).status).toBe(403);
    expect((await gateway.post(`/api/v4/projects/${projectId}/deployments`).set(tokens.stranger).send(body)).status).toBe(404);
    expect((await gateway.get(`/api/v4/projects/${projectId}/deployments`).set(tokens.stranger)).status).toBe(404);
    expect((await gateway.get(`/api/v4/projects/${projectId}/environments`)).status).toBe(404);
  });
});
