/**
 * The container registry end to end: the Distribution registry (Debian's `docker-registry`)
 * authorised by the platform's `/jwt/auth`, skopeo pushing and pulling hand-made OCI images with
 * personal access tokens, GitLab's permissions (developers push, reporters pull, anonymous
 * callers pull public projects' images).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';
import { buildImage, skopeoCopy, type BuiltImage } from './oci-images.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let work: string;
let registryHost: string;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

async function userWithToken(username: string, memberships: Array<{ projectId: number; level: number }>): Promise<string> {
  const user = await gateway
    .post('/api/v4/users')
    .set(asRoot)
    .send({ email: `${username}@example.com`, name: username, username, password: 'a-long-enough-password' });
  expect(user.status).toBe(201);
  for (const { projectId, level } of memberships) {
    const member = await gateway
      .post(`/api/v4/projects/${projectId}/members`)
      .set(asRoot)
      .send({ user_id: user.body.id, access_level: level });
    expect(member.status).toBe(201);
  }
  const token = await gateway
    .post(`/api/v4/users/${user.body.id}/personal_access_tokens`)
    .set(asRoot)
    .send({ name: 'registry', scopes: ['api'] });
  expect(token.status).toBe(201);
  return `${username}:${token.body.token as string}`;
}

const days = (count: number) => new Date(Date.now() - count * 24 * 3600 * 1000);

function image(tag: string, createdDaysAgo: number): BuiltImage {
  return buildImage(path.join(work, `layout-${tag}-${createdDaysAgo}`), { tag, content: `image ${tag}\n`, created: days(createdDaysAgo) });
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'e2e-registry-'));
  platform = await startTestPlatform({ services: ['identity', 'packages'] });
  gateway = request(platform.url);
  registryHost = new URL(platform.registryUrl ?? '').host;
}, 180_000);

afterAll(async () => {
  await platform?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the container registry with skopeo', () => {
  let privateProject: { id: number; path: string };
  let publicProject: { id: number; path: string };
  let developer: string;
  let reporter: string;
  let stranger: string;

  it('shows where a project keeps its images, and hands out tokens only for what the caller may do', async () => {
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Ships', path: 'ships', visibility: 'public' });
    expect(group.status).toBe(201);
    const created = await gateway
      .post('/api/v4/projects')
      .set(asRoot)
      .send({ name: 'Cargo', path: 'cargo', namespace_id: group.body.id, visibility: 'private' });
    expect(created.status).toBe(201);
    expect(created.body.container_registry_image_prefix).toBe(`${registryHost}/ships/cargo`);
    privateProject = { id: created.body.id as number, path: 'ships/cargo' };
    const open = await gateway
      .post('/api/v4/projects')
      .set(asRoot)
      .send({ name: 'Dock', path: 'dock', namespace_id: group.body.id, visibility: 'public' });
    expect(open.status).toBe(201);
    publicProject = { id: open.body.id as number, path: 'ships/dock' };
    developer = await userWithToken('ship-dev', [
      { projectId: privateProject.id, level: 30 },
      { projectId: publicProject.id, level: 30 },
    ]);
    reporter = await userWithToken('ship-reporter', [{ projectId: privateProject.id, level: 20 }]);
    stranger = await userWithToken('ship-stranger', []);

    const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
    const claimsOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
    const scope = `repository:${privateProject.path}:pull,push`;

    const asDeveloper = await gateway
      .get('/jwt/auth')
      .query({ service: 'container_registry', scope })
      .set('Authorization', basic(developer));
    expect(asDeveloper.status).toBe(200);
    expect(asDeveloper.body.access_token).toBe(asDeveloper.body.token);
    expect(JSON.parse(Buffer.from(String(asDeveloper.body.token).split('.')[0] ?? '', 'base64url').toString())).toMatchObject({
      alg: 'RS256',
    });
    expect(claimsOf(asDeveloper.body.token)).toMatchObject({
      aud: 'container_registry',
      sub: 'ship-dev',
      access: [{ type: 'repository', name: privateProject.path, actions: ['pull', 'push'] }],
    });

    const asReporter = await gateway.get('/jwt/auth').query({ service: 'container_registry', scope }).set('Authorization', basic(reporter));
    expect(claimsOf(asReporter.body.token).access).toEqual([{ type: 'repository', name: privateProject.path, actions: ['pull'] }]);

    // Several scopes at once: each is weighed on its own.
    const several = await gateway
      .get(
        `/jwt/auth?service=container_registry&scope=${encodeURIComponent(scope)}&scope=${encodeURIComponent(`repository:${publicProject.path}:pull,push`)}`,
      )
      .set('Authorization', basic(reporter));
    expect(claimsOf(several.body.token).access).toEqual([
      { type: 'repository', name: privateProject.path, actions: ['pull'] },
      { type: 'repository', name: publicProject.path, actions: ['pull'] },
    ]);

    const asStranger = await gateway.get('/jwt/auth').query({ service: 'container_registry', scope }).set('Authorization', basic(stranger));
    expect(asStranger.status).toBe(200);
    expect(claimsOf(asStranger.body.token).access).toEqual([]);

    const wrongPassword = await gateway
      .get('/jwt/auth')
      .query({ service: 'container_registry', scope })
      .set('Authorization', basic('ship-dev:glpat-not-a-real-token-000'));
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual({ errors: [{ code: 'UNAUTHORIZED', message: 'HTTP Basic: Access denied' }] });

    const anonymous = await gateway
      .get('/jwt/auth')
      .query({ service: 'container_registry', scope: `repository:${publicProject.path}:pull,push` });
    expect(claimsOf(anonymous.body.token).access).toEqual([{ type: 'repository', name: publicProject.path, actions: ['pull'] }]);

    const otherService = await gateway.get('/jwt/auth').query({ service: 'elsewhere', scope }).set('Authorization', basic(developer));
    expect(otherService.status).toBe(404);
  });

  it('lets developers push and reporters pull, and nobody else', async () => {
    const v1 = image('v1', 3);
    const pushed = await skopeoCopy(v1.reference, `docker://${registryHost}/${privateProject.path}:v1`, {
      destinationCredentials: developer,
    });
    expect(pushed).toMatchObject({ code: 0 });
    const nested = await skopeoCopy(image('v1', 2).reference, `docker://${registryHost}/${privateProject.path}/worker:v1`, {
      destinationCredentials: developer,
    });
    expect(nested).toMatchObject({ code: 0 });

    const byReporter = await skopeoCopy(image('v2', 1).reference, `docker://${registryHost}/${privateProject.path}:v2`, {
      destinationCredentials: reporter,
    });
    expect(byReporter.code).not.toBe(0);
    expect(byReporter.output).toMatch(/denied|unauthorized/i);

    const pulledDir = path.join(work, 'pulled');
    const pulled = await skopeoCopy(`docker://${registryHost}/${privateProject.path}:v1`, `oci:${pulledDir}:v1`, {
      sourceCredentials: reporter,
    });
    expect(pulled).toMatchObject({ code: 0 });
    const index = JSON.parse(readFileSync(path.join(pulledDir, 'index.json'), 'utf8')) as { manifests: Array<{ digest: string }> };
    expect(index.manifests[0]?.digest).toBe(v1.manifestDigest);

    const byStranger = await skopeoCopy(`docker://${registryHost}/${privateProject.path}:v1`, `oci:${path.join(work, 'stranger')}:v1`, {
      sourceCredentials: stranger,
    });
    expect(byStranger.code).not.toBe(0);
    const anonymously = await skopeoCopy(`docker://${registryHost}/${privateProject.path}:v1`, `oci:${path.join(work, 'anonymous')}:v1`);
    expect(anonymously.code).not.toBe(0);
  }, 120_000);

  it('lets anybody pull a public project’s images', async () => {
    const pushed = await skopeoCopy(image('stable', 1).reference, `docker://${registryHost}/${publicProject.path}:stable`, {
      destinationCredentials: developer,
    });
    expect(pushed).toMatchObject({ code: 0 });
    const anonymously = await skopeoCopy(
      `docker://${registryHost}/${publicProject.path}:stable`,
      `oci:${path.join(work, 'public')}:stable`,
    );
    expect(anonymously).toMatchObject({ code: 0 });
    const anonymousPush = await skopeoCopy(image('nope', 1).reference, `docker://${registryHost}/${publicProject.path}:nope`);
    expect(anonymousPush.code).not.toBe(0);
  }, 120_000);
});
