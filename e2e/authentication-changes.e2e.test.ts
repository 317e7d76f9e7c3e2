/**
 * A revoked or rotated token, a blocked, deactivated, banned or deleted user, a deleted project's
 * or group's bots and a demoted administrator lose their access with the answer to the change: the gateway that served it
 * forgets what it cached about the user before answering, without waiting for identity's event.
 * The gateway caches tokens (`AUTH_CACHE_TTL_MS` left at its default).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { databaseUrlFor } from '@platform/devstack';
import { testEnvironment } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

type TestPlatform = Awaited<ReturnType<typeof startTestPlatform>>;
let platform: TestPlatform;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN, 'Content-Type': 'application/json' };
/** Requests sent with the old credentials right after the change. */
const ATTEMPTS = 100;

beforeAll(async () => {
  platform = await startTestPlatform({
    services: ['identity'],
    // This gateway never hears identity's events (its broker cannot be reached), as if they were
    // late: only the answer to the change itself can make it forget the user in time.
    gatewayEnv: { KAFKA_BROKERS: '127.0.0.1:1' },
  });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

async function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const response = await fetch(`${platform.url}${path}`, {
    method: init.method ?? 'GET',
    headers: init.headers ?? asRoot,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function createUserWithToken(username: string, options: { admin?: boolean } = {}) {
  const user = await call('/api/v4/users', {
    method: 'POST',
    body: { username, name: username, email: `${username}@example.com`, password: 'a-long-enough-password', admin: options.admin ?? false },
  });
  expect(user.status).toBe(201);
  const id = (user.body as { id: number }).id;
  const token = await call(`/api/v4/users/${id}/personal_access_tokens`, { method: 'POST', body: { name: 't', scopes: ['api', 'sudo'] } });
  expect(token.status).toBe(201);
  const { id: tokenId, token: value } = token.body as { id: number; token: string };
  return { id, tokenId, headers: { 'PRIVATE-TOKEN': value } };
}

/** A project or group access token of `resource` (`projects/<id>` or `groups/<id>`), as its request headers. */
async function createAccessToken(resource: string): Promise<Record<string, string>> {
  const token = await call(`/api/v4/${resource}/access_tokens`, { method: 'POST', body: { name: 'bot', scopes: ['api'] } });
  expect(token.status).toBe(201);
  return { 'PRIVATE-TOKEN': (token.body as { token: string }).token };
}

async function createGroup(path: string, parentId?: number): Promise<number> {
  const group = await call('/api/v4/groups', { method: 'POST', body: { name: path, path, ...(parentId ? { parent_id: parentId } : {}) } });
  expect(group.status).toBe(201);
  return (group.body as { id: number }).id;
}

async function createProject(path: string, namespaceId: number): Promise<number> {
  const project = await call('/api/v4/projects', { method: 'POST', body: { name: path, path, namespace_id: namespaceId } });
  expect(project.status).toBe(201);
  return (project.body as { id: number }).id;
}

/** Makes the user dormant, as only such a user may be deactivated: nobody saw them for a year. */
async function makeDormant(userId: number): Promise<void> {
  const identity = new pg.Client({ connectionString: databaseUrlFor(testEnvironment().postgresUrl, `${platform.databasePrefix}identity`) });
  await identity.connect();
  try {
    await identity.query("update users set created_at = now() - interval '1 year', last_activity_on = current_date - 365 where id = $1", [
      userId,
    ]);
  } finally {
    await identity.end();
  }
}

/** Sends `request` `ATTEMPTS` times, each as soon as the one before is answered, and counts the answers that let it in. */
async function successesOf(request: () => Promise<{ status: number }>): Promise<number> {
  let successes = 0;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if ((await request()).status < 400) successes += 1;
  }
  return successes;
}

describe('the old credentials, right after the change', () => {
  it('are refused every time once the token is revoked', async () => {
    const user = await createUserWithToken('revoked-at-once');
    expect((await call('/api/v4/user', { headers: user.headers })).status).toBe(200);
    expect((await call(`/api/v4/personal_access_tokens/${user.tokenId}`, { method: 'DELETE' })).status).toBe(204);
    expect(await successesOf(() => call('/api/v4/user', { headers: user.headers }))).toBe(0);
  });

  it('are refused every time once the token rotated itself away, and its successor works', async () => {
    const user = await createUserWithToken('rotated-at-once');
    expect((await call('/api/v4/user', { headers: user.headers })).status).toBe(200);
    const rotated = await call('/api/v4/personal_access_tokens/self/rotate', { method: 'POST', headers: user.headers });
    expect(rotated.status).toBe(200);
    expect(await successesOf(() => call('/api/v4/user', { headers: user.headers }))).toBe(0);
    const successor = { 'PRIVATE-TOKEN': (rotated.body as { token: string }).token };
    expect((await call('/api/v4/user', { headers: successor })).status).toBe(200);
  });

  it('are refused every time once the user is blocked', async () => {
    const user = await createUserWithToken('blocked-at-once');
    expect((await call('/api/v4/user', { headers: user.headers })).status).toBe(200);
    expect((await call(`/api/v4/users/${user.id}/block`, { method: 'POST' })).status).toBe(201);
    expect(await successesOf(() => call('/api/v4/user', { headers: user.headers }))).toBe(0);
  });

  it('are refused every time once the user is deactivated', async () => {
    const user = await createUserWithToken('deactivated-at-once');
    expect((await call('/api/v4/user', { headers: user.headers })).status).toBe(200);
    await makeDormant(user.id);
    expect(await call(`/api/v4/users/${user.id}/deactivate`, { method: 'POST' })).toEqual({ status: 201, body: true });
    expect(await successesOf(() => call('/api/v4/user', { headers: user.headers }))).toBe(0);
  });

  it('are refused every time once the user is banned', async () => {
    const user = await createUserWithToken('banned-at-once');
    expect((await call('/api/v4/user', { headers: user.headers })).status).toBe(200);
    expect(await call(`/api/v4/users/${user.id}/ban`, { method: 'POST' })).toEqual({ status: 201, body: true });
    expect(await successesOf(() => call('/api/v4/user', { headers: user.headers }))).toBe(0);
  });

  it('are refused every time once the user is deleted', async () => {
    const user = await createUserWithToken('deleted-at-once');
    expect((await call('/api/v4/user', { headers: user.headers })).status).toBe(200);
    expect((await call(`/api/v4/users/${user.id}?hard_delete=true`, { method: 'DELETE' })).status).toBe(204);
    // A route that does not read the user's row: only the authentication can refuse it.
    expect(await successesOf(() => call('/api/v4/version', { headers: user.headers }))).toBe(0);
  });

  it("are refused every time once the token's project is deleted, its bot with it", async () => {
    const projectId = await createProject('bot-home', await createGroup('bot-home-group'));
    const bot = await createAccessToken(`projects/${projectId}`);
    expect((await call('/api/v4/version', { headers: bot })).status).toBe(200);
    expect((await call(`/api/v4/projects/${projectId}`, { method: 'DELETE' })).status).toBe(202);
    expect((await call('/api/v4/version', { headers: bot })).status).toBe(401);
    expect(await successesOf(() => call('/api/v4/version', { headers: bot }))).toBe(0);
  });

  it("are refused every time once the group above the tokens' group and project is deleted, their bots with it", async () => {
    const top = await createGroup('bot-tree');
    const sub = await createGroup('bot-branch', top);
    const bots = [await createAccessToken(`groups/${sub}`), await createAccessToken(`projects/${await createProject('bot-leaf', sub)}`)];
    for (const bot of bots) expect((await call('/api/v4/version', { headers: bot })).status).toBe(200);
    expect((await call(`/api/v4/groups/${top}`, { method: 'DELETE' })).status).toBe(202);
    for (const bot of bots) {
      expect((await call('/api/v4/version', { headers: bot })).status).toBe(401);
      expect(await successesOf(() => call('/api/v4/version', { headers: bot }))).toBe(0);
    }
  });

  it('no longer act as an administrator once the administrator is demoted: sudo is refused every time', async () => {
    const admin = await createUserWithToken('demoted-at-once', { admin: true });
    const other = await createUserWithToken('impersonated');
    const asOther = { ...admin.headers, Sudo: String(other.id) };
    const impersonated = await call('/api/v4/user', { headers: asOther });
    expect(impersonated).toMatchObject({ status: 200, body: { id: other.id } });
    expect((await call(`/api/v4/users/${admin.id}`, { method: 'PUT', body: { admin: false } })).status).toBe(200);
    expect(await successesOf(() => call('/api/v4/user', { headers: asOther }))).toBe(0);
  });
});
