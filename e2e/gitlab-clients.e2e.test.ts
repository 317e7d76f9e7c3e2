/**
 * What every GitLab client relies on, through the real gateway: every body encoding a client sends
 * reaches the services, unreadable input is a 4xx with a GitLab body (never a 5xx), and the
 * server says which GitLab version it speaks.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import { Gitlab } from '@gitbeaker/rest';
import request from 'supertest';
import { existsSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { RunningPlatform } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

let platform: RunningPlatform;
let gateway: ReturnType<typeof request>;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['identity'] });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

/** A request exactly as written: supertest and fetch would normalise `%ZZ` or refuse `%00`. */
function rawRequest(path: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}) {
  const url = new URL(platform.url);
  return new Promise<{ status: number; contentType: string | undefined; body: unknown }>((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: { ...asRoot, ...options.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('request bodies through the gateway', () => {
  it('creates a group from JSON, a URL-encoded form, a multipart form (curl -F) and the query string alike', async () => {
    const json = await gateway
      .post('/api/v4/groups')
      .set(asRoot)
      .send({ name: 'Json Group', path: 'json-group', request_access_enabled: 'False' });
    const form = await gateway
      .post('/api/v4/groups')
      .set(asRoot)
      .type('form')
      .send('name=Form+Group&path=form-group&request_access_enabled=False');
    const multipart = await gateway
      .post('/api/v4/groups')
      .set(asRoot)
      .field('name', 'Multipart Group')
      .field('path', 'multipart-group')
      .field('request_access_enabled', 'False');
    const query = await gateway.post('/api/v4/groups?name=Query+Group&path=query-group&request_access_enabled=False').set(asRoot);
    for (const [response, name] of [
      [json, 'Json Group'],
      [form, 'Form Group'],
      [multipart, 'Multipart Group'],
      [query, 'Query Group'],
    ] as const) {
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ name, request_access_enabled: false });
    }
  });

  it('applies Users.edit, which @gitbeaker/rest sends as multipart/form-data', async () => {
    const root = new Gitlab({ host: platform.url, token: E2E_ROOT_TOKEN });
    const user = await root.Users.create({
      email: 'multipart@example.com',
      name: 'Multi Part',
      username: 'multipart',
      password: 'a-long-enough-password',
    });
    await root.Users.edit(user.id, { location: 'Lisbon', bio: 'Edits arrive as a form' });
    const shown = await root.Users.show(user.id);
    expect(shown).toMatchObject({ location: 'Lisbon', bio: 'Edits arrive as a form' });
  });

  it('answers JSON with exactly application/json', async () => {
    const user = await gateway.get('/api/v4/user').set(asRoot);
    const missing = await gateway.get('/api/v4/groups/999999').set(asRoot);
    const unrouted = await gateway.get('/api/v4/nothing-here').set(asRoot);
    for (const response of [user, missing, unrouted]) expect(response.headers['content-type']).toBe('application/json');
  });

  it.each([
    ['malformed percent-encoding in a group path', '/api/v4/groups/%E0%A4%A', 400],
    ['an invalid escape in a project path', '/api/v4/projects/%ZZ', 400],
    ['a NUL byte in a group path', '/api/v4/groups/%00', 400],
    ['a NUL byte in a search', '/api/v4/users?search=%00', 400],
    ['a NUL byte in sudo', '/api/v4/user?sudo=%00', 400],
    ['a query nested 50 levels deep', `/api/v4/groups?a${'[b]'.repeat(50)}=1`, 400],
  ])('answers %s (%s) with %i and a GitLab body', async (_case, path, status) => {
    const response = await rawRequest(path);
    expect(response.status).toBe(status);
    expect(response.contentType).toBe('application/json');
    expect(response.body).toEqual({ message: expect.stringMatching(/^400 Bad request/) });
  });

  it.each([
    ['an unknown JSON charset', 415, { 'Content-Type': 'application/json; charset=x-bogus' }, Buffer.from('{"name":"x"}')],
    ['a latin1 form', 415, { 'Content-Type': 'application/x-www-form-urlencoded; charset=latin1' }, Buffer.from('name=x')],
    ['a content type no parser reads', 415, { 'Content-Type': 'text/plain' }, Buffer.from('name=x')],
    [
      'gzip encoding on a body that is not gzip',
      400,
      { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      Buffer.from('{"name":"x"}'),
    ],
    ['a form nested 50 levels deep', 400, { 'Content-Type': 'application/x-www-form-urlencoded' }, Buffer.from(`a${'[b]'.repeat(50)}=1`)],
    [
      'a form with 2,000 fields',
      413,
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      Buffer.from(Array.from({ length: 2000 }, (_, i) => `f${i}=1`).join('&')),
    ],
    ['a NUL byte in a JSON string', 400, { 'Content-Type': 'application/json' }, Buffer.from('{"name":"a\\u0000b","path":"nul-group"}')],
    ['malformed JSON', 400, { 'Content-Type': 'application/json' }, Buffer.from('{"name":')],
  ] as Array<[string, number, Record<string, string>, Buffer]>)('answers a body with %s with %i', async (_case, status, headers, body) => {
    const response = await rawRequest('/api/v4/groups', { method: 'POST', headers, body });
    expect(response.status).toBe(status);
    expect(response.contentType).toBe('application/json');
    expect(Object.keys(response.body as object)).toEqual([expect.stringMatching(/^(message|error)$/)]);
  });
});

describe('server detection', () => {
  const release = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

  it("answers GET /version and GET /metadata with the platform's release, authenticated as GitLab", async () => {
    const version = await gateway.get('/api/v4/version').set(asRoot);
    expect(version.status).toBe(200);
    expect(version.headers['content-type']).toBe('application/json');
    expect(version.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(version.body).toEqual({ version: release.version, revision: expect.any(String) });
    expect(version.body.version).toMatch(/^\d+\.\d+\.\d+/);
    const metadata = await gateway.get('/api/v4/metadata').set(asRoot);
    expect(metadata.body).toEqual({
      version: release.version,
      revision: version.body.revision,
      kas: { enabled: false, externalUrl: null, version: null },
      enterprise: false,
    });
    for (const path of ['/api/v4/version', '/api/v4/metadata']) {
      expect(await gateway.get(path)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    }
  });

  it('is read by @gitbeaker/rest', async () => {
    const root = new Gitlab({ host: platform.url, token: E2E_ROOT_TOKEN });
    expect(await root.Metadata.show()).toMatchObject({ version: release.version, enterprise: false });
  });
});

/** The gateway's answer once it refuses `token`, within the bound of its cache's invalidation. */
function refusalOf(token: string) {
  return waitFor(
    async () => {
      const response = await gateway.get('/api/v4/user').set('PRIVATE-TOKEN', token);
      return response.status === 401 ? response : undefined;
    },
    { timeoutMs: 5000, what: 'the gateway to refuse a revoked token' },
  );
}

describe('personal access tokens with @gitbeaker/rest', () => {
  it('lists, shows, rotates and revokes; refused tokens get GitLab 401 bodies', async () => {
    const root = new Gitlab({ host: platform.url, token: E2E_ROOT_TOKEN });
    const user = await root.Users.create({
      email: 'pat@example.com',
      name: 'Pat Owner',
      username: 'pat-owner',
      password: 'a-long-enough-password',
    });
    const issued = await root.PersonalAccessTokens.create(user.id, 'laptop', ['api']);
    const client = new Gitlab({ host: platform.url, token: issued.token as string });

    expect(await client.PersonalAccessTokens.show()).toMatchObject({ id: issued.id, name: 'laptop', user_id: user.id });
    expect((await client.PersonalAccessTokens.all()).map((token) => token.id)).toEqual([issued.id]);

    const rotated = await client.PersonalAccessTokens.rotate(issued.id);
    expect(rotated.token).not.toBe(issued.token);
    // The gateway caches authentications; identity's revocation event makes it forget them.
    const refusedOld = await refusalOf(issued.token as string);
    expect(refusedOld.body).toEqual({ message: '401 Unauthorized' });

    const rotatedClient = new Gitlab({ host: platform.url, token: rotated.token as string });
    await rotatedClient.PersonalAccessTokens.remove();
    expect((await refusalOf(rotated.token as string)).body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('transfers with @gitbeaker/rest', () => {
  it('moves a group and a project, lists where they may go, and answers GitLab refusals', async () => {
    const root = new Gitlab({ host: platform.url, token: E2E_ROOT_TOKEN });
    const top = await root.Groups.create('Transfer top', 'transfer-top');
    const team = await root.Groups.create('Transfer team', 'transfer-team', { parentId: top.id, visibility: 'private' });
    const other = await root.Groups.create('Transfer other', 'transfer-other');
    const project = await root.Projects.create({ name: 'Mobile', path: 'mobile', namespaceId: team.id });

    const locations = await root.Groups.allTransferLocations(team.id, { search: 'transfer' });
    expect(locations.map((group) => group.full_path)).toEqual(['transfer-other']);
    const moved = await root.Groups.transfer(team.id, { groupId: other.id });
    expect(moved).toMatchObject({ full_path: 'transfer-other/transfer-team', parent_id: other.id });
    expect((await root.Projects.show(project.id)).path_with_namespace).toBe('transfer-other/transfer-team/mobile');
    await expect(root.Projects.show('transfer-top/transfer-team/mobile')).rejects.toMatchObject({
      cause: { description: '404 Project Not Found' },
    });
    await expect(root.Groups.transfer(team.id, { groupId: other.id })).rejects.toMatchObject({
      cause: { description: 'Transfer failed: Group is already associated to the parent group.' },
    });
    expect(await root.Groups.transfer(team.id)).toMatchObject({ full_path: 'transfer-team', parent_id: null });
    await expect(root.Groups.transfer(top.id)).rejects.toMatchObject({
      cause: { description: 'Transfer failed: Group is already a root group.' },
    });

    const projectLocations = await root.Projects.allTransferLocations(project.id, { search: 'transfer' });
    expect(projectLocations.map((group) => group.full_path).sort()).toEqual(['transfer-other', 'transfer-top']);
    const transferred = await root.Projects.transfer(project.id, 'transfer-top');
    expect(transferred).toMatchObject({ path_with_namespace: 'transfer-top/mobile', visibility: 'private' });
    await expect(root.Projects.transfer(project.id, top.id)).rejects.toMatchObject({
      cause: { description: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}' },
    });
    const intoGroup = await root.Groups.transferProject(other.id, project.id);
    expect(intoGroup).toMatchObject({
      id: other.id,
      projects: [expect.objectContaining({ path_with_namespace: 'transfer-other/mobile' })],
    });
  });
});

describe("a blocked user's token", () => {
  it("is refused with GitLab's 403 and its reason, through the gateway's cache, and works again once unblocked", async () => {
    const root = new Gitlab({ host: platform.url, token: E2E_ROOT_TOKEN });
    const user = await root.Users.create({
      email: 'blocked-owner@example.com',
      name: 'Blocked Owner',
      username: 'blocked-owner',
      password: 'a-long-enough-password',
    });
    const issued = await root.PersonalAccessTokens.create(user.id, 'laptop', ['api']);
    const client = new Gitlab({ host: platform.url, token: issued.token as string });
    expect((await client.Users.showCurrentUser()).username).toBe('blocked-owner');

    await root.Users.block(user.id);
    // The gateway remembers the token's authentication until identity's event tells it of the block.
    const refused = await waitFor(
      async () => {
        const response = await gateway.get('/api/v4/user').set('PRIVATE-TOKEN', issued.token as string);
        return response.status === 200 ? undefined : response;
      },
      { timeoutMs: 5000, what: 'the gateway to refuse a blocked user' },
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
    await expect(client.Projects.all()).rejects.toMatchObject({ cause: { description: '403 Forbidden - Your account has been blocked.' } });

    await root.Users.unblock(user.id);
    expect((await client.Users.showCurrentUser()).username).toBe('blocked-owner');
  });
});

describe('avatars through the gateway', () => {
  /** A 1x1 PNG and a 1x1 GIF. */
  const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGO4CQAAwgDBKDKz0wAAAABJRU5ErkJggg==', 'base64');
  const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
  const file = (content: Buffer, filename: string) => ({ content: new Blob([new Uint8Array(content)]), filename });
  const served = async (avatarUrl: string, headers: Record<string, string> = {}) => {
    const response = await gateway.get(new URL(avatarUrl).pathname).set(headers);
    return { status: response.status, body: response.body as Buffer };
  };

  it('are uploaded, replaced, downloaded and removed with @gitbeaker/rest, and served at avatar_url', async () => {
    const root = new Gitlab({ host: platform.url, token: E2E_ROOT_TOKEN });
    const group = await root.Groups.create('Avatar group', 'avatar-group', { avatar: file(PNG, 'group.png') });
    expect(group.avatar_url).toBe(`${platform.url}/uploads/-/system/group/avatar/${group.id}/group.png`);
    expect(await served(group.avatar_url as string, asRoot)).toEqual({ status: 200, body: PNG });
    // A private group's avatar is not for anonymous callers.
    expect((await served(group.avatar_url as string)).status).toBe(404);
    const downloaded = (await root.Groups.downloadAvatar(group.id)) as unknown as Blob;
    expect(Buffer.from(await downloaded.arrayBuffer())).toEqual(PNG);
    // Groups.uploadAvatar sends `file` to PUT /groups/:id/avatar, a path GitLab itself lacks.
    const uploaded = (await root.Groups.uploadAvatar(group.id, new Blob([new Uint8Array(GIF)]), { filename: 'group.gif' })) as {
      avatar_url: string;
    };
    expect(uploaded.avatar_url).toBe(`${platform.url}/uploads/-/system/group/avatar/${group.id}/group.gif`);
    expect(await served(uploaded.avatar_url, asRoot)).toEqual({ status: 200, body: GIF });

    const project = await root.Projects.create({ name: 'Avatar project', visibility: 'public', avatar: file(GIF, 'project.gif') });
    expect(project.avatar_url).toMatch(/\/uploads\/-\/system\/project\/avatar\/\d+\/project\.gif$/);
    const replaced = await root.Projects.uploadAvatar(project.id, file(PNG, 'project.png'));
    expect(replaced.avatar_url).toMatch(/\/project\.png$/);
    expect(await served(replaced.avatar_url as string)).toEqual({ status: 200, body: PNG });
    expect((await served(project.avatar_url as string)).status).toBe(404);
    await expect(root.Projects.uploadAvatar(project.id, file(Buffer.from('#!/bin/sh'), 'evil.png'))).rejects.toMatchObject({
      cause: {
        description: JSON.stringify({
          avatar: [
            'file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico, webp',
          ],
        }),
      },
    });
    await root.Projects.removeAvatar(project.id);
    expect((await root.Projects.show(project.id)).avatar_url).toBeNull();
    expect((await served(replaced.avatar_url as string)).status).toBe(404);

    const user = await root.Users.create({
      email: 'pictured@example.com',
      name: 'Pictured',
      username: 'pictured',
      password: 'a-long-enough-password',
    });
    const edited = await root.Users.edit(user.id, { avatar: file(GIF, 'me.gif') });
    expect(edited.avatar_url).toBe(`${platform.url}/uploads/-/system/user/avatar/${user.id}/me.gif`);
    expect(await served(edited.avatar_url as string)).toEqual({ status: 200, body: GIF });
  });

  it('settles access before reading the file: a caller who may not change the group or project learns nothing from it', async () => {
    const user = await gateway
      .post('/api/v4/users')
      .set(asRoot)
      .send({ email: 'onlooker@example.com', name: 'Onlooker', username: 'onlooker', password: 'a-long-enough-password' });
    const token = await gateway
      .post(`/api/v4/users/${user.body.id}/personal_access_tokens`)
      .set(asRoot)
      .send({ name: 'avatars', scopes: ['api'] });
    const asOnlooker = { 'PRIVATE-TOKEN': token.body.token as string };
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Guarded', path: 'guarded', visibility: 'public' });
    const project = await gateway.post('/api/v4/projects').set(asRoot).send({ name: 'Guarded app', visibility: 'public' });
    const notAnImage = Buffer.from('#!/bin/sh');
    for (const path of [`/api/v4/groups/${group.body.id}`, `/api/v4/groups/${group.body.id}/avatar`]) {
      const field = path.endsWith('/avatar') ? 'file' : 'avatar';
      const refused = await gateway.put(path).set(asOnlooker).attach(field, notAnImage, 'evil.png');
      expect({ path, status: refused.status }).toEqual({ path, status: 403 });
    }
    const refused = await gateway.put(`/api/v4/projects/${project.body.id}`).set(asOnlooker).attach('avatar', notAnImage, 'evil.png');
    expect(refused.status).toBe(403);
    const missing = await gateway.put(`/api/v4/groups/${group.body.id}/avatar`).set(asRoot).send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'file is missing' });
  });

  it('takes PUT /user/avatar as curl -F sends it, and refuses a file over 200 KiB', async () => {
    const own = await gateway.put('/api/v4/user/avatar').set(asRoot).attach('avatar', PNG, 'root.png');
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ avatar_url: `${platform.url}/uploads/-/system/user/avatar/1/root.png` });
    const big = await gateway
      .put('/api/v4/user/avatar')
      .set(asRoot)
      .attach('avatar', Buffer.concat([PNG, Buffer.alloc(210 * 1024)]), 'big.png');
    expect(big.status).toBe(400);
    expect(big.body).toEqual({ message: { avatar: ['is too big (should be at most 200 KiB)'] } });
  });
});

describe('the API documentation page', () => {
  const CHROMIUM = '/usr/bin/chromium';

  it('renders /api/docs from locally served files, showing a known endpoint, in headless Chromium', async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install chromium`);
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const outside: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(platform.url)) outside.push(request.url());
      });
      await page.goto(`${platform.url}/api/docs`);
      await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
      // Swagger UI renders a long operation list virtually: an operation exists in the page once scrolled to.
      // Each step waits two frames for the rendering to catch up, so that a loaded machine skips no operation.
      const rendered = () => page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      const atBottom = async () =>
        (await page.evaluate('window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 1')) === true;
      const scrolledTo = async (apiPath: string) => {
        const operation = page.locator(`[data-path="${apiPath}"]`);
        await page.evaluate('window.scrollTo(0, 0)');
        await rendered();
        while ((await operation.count()) === 0 && !(await atBottom())) {
          await page.mouse.wheel(0, 300);
          await rendered();
        }
        return operation.count();
      };
      expect(await scrolledTo('/api/v4/version')).toBeGreaterThan(0);
      expect(await scrolledTo('/api/v4/personal_access_tokens/{id}/rotate')).toBeGreaterThan(0);
      expect(outside).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
