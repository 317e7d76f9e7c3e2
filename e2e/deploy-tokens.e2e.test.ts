/**
 * Deploy tokens where GitLab accepts them, through the real gateway (with its authentication cache
 * on): the git CLI clones with a deploy token's username and token and is refused a push; the
 * container registry's token endpoint grants pulls with read_registry and pushes with
 * write_registry on the token's project, or its group's; the npm and Maven registries serve
 * packages with read_package_registry and take published ones with write_package_registry; the API never takes one; a revoked or
 * expired token is refused at once.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { databaseUrlFor, type RunningPlatform } from '@platform/devstack';
import { testEnvironment, waitFor } from '@platform/testing';
import { createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';
import { gitCli, gitRemote, type Git } from './git-cli.ts';

let platform: RunningPlatform & { databasePrefix: string };
let gateway: ReturnType<typeof request>;
let identity: pg.Client;
let review: pg.Client;
let work: string;
let git: Git;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

interface DeployToken {
  id: number;
  username: string;
  token: string;
}

async function createDeployToken(resource: 'projects' | 'groups', id: number, scopes: string[]): Promise<DeployToken> {
  const response = await gateway
    .post(`/api/v4/${resource}/${id}/deploy_tokens`)
    .set(asRoot)
    .send({ name: `ci-${scopes.join('-')}`, scopes });
  expect(response.status).toBe(201);
  return response.body as DeployToken;
}

/** The clone URL with the deploy token's username and token as HTTP Basic credentials. */
function deployRemote(token: DeployToken, projectPath: string, username = token.username): string {
  const url = new URL(`${platform.url}/${projectPath}.git`);
  url.username = username;
  url.password = token.token;
  return url.toString();
}

const basic = (token: DeployToken) => `Basic ${Buffer.from(`${token.username}:${token.token}`).toString('base64')}`;

async function registryAccess(token: DeployToken, scope: string): Promise<{ status: number; sub?: unknown; access?: unknown }> {
  const response = await gateway.get('/jwt/auth').query({ service: 'container_registry', scope }).set('Authorization', basic(token));
  if (response.status !== 200) return { status: response.status };
  const claims = JSON.parse(Buffer.from(String(response.body.token).split('.')[1] ?? '', 'base64url').toString()) as Record<
    string,
    unknown
  >;
  return { status: 200, sub: claims.sub, access: claims.access };
}

/** A registry file, whatever its content type, as text. */
async function download(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const response = await gateway
    .get(url)
    .set(headers)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  return { status: response.status, body: (response.body as Buffer).toString() };
}

async function createProject(name: string, namespaceId?: number): Promise<{ id: number; path: string }> {
  const response = await gateway
    .post('/api/v4/projects')
    .set(asRoot)
    .send({ name, path: name, visibility: 'private', ...(namespaceId ? { namespace_id: namespaceId } : {}) });
  expect(response.status).toBe(201);
  const id = response.body.id as number;
  await waitFor(async () => (await review.query('select 1 from repositories where project_id = $1', [id])).rows[0]);
  return { id, path: response.body.path_with_namespace as string };
}

beforeAll(async () => {
  work = createWorkDir('deploy-tokens');
  git = await gitCli(work);
  platform = await startTestPlatform({ services: ['identity', 'review', 'packages'] });
  gateway = request(platform.url);
  const { postgresUrl } = testEnvironment();
  identity = new pg.Client({ connectionString: databaseUrlFor(postgresUrl, `${platform.databasePrefix}identity`) });
  review = new pg.Client({ connectionString: databaseUrlFor(postgresUrl, `${platform.databasePrefix}review`) });
  await identity.connect();
  await review.connect();
}, 180_000);

afterAll(async () => {
  await identity?.end();
  await review?.end();
  await platform?.stop();
  removeWorkDir(work);
});

describe('deploy tokens', () => {
  let groupId: number;
  let engine: { id: number; path: string };
  let other: { id: number; path: string };

  it('sets up a private group project with a commit, and a private project elsewhere', async () => {
    const group = await gateway.post('/api/v4/groups').set(asRoot).send({ name: 'Fleet', path: 'fleet', visibility: 'private' });
    expect(group.status).toBe(201);
    groupId = group.body.id as number;
    engine = await createProject('engine', groupId);
    other = await createProject('other');

    const seed = path.join(work, 'seed');
    expect((await git(['clone', '-q', gitRemote(platform.url, E2E_ROOT_TOKEN, engine.path), seed])).code).toBe(0);
    writeFileSync(path.join(seed, 'README.md'), 'engine\n');
    expect((await git(['add', 'README.md'], seed)).code).toBe(0);
    expect((await git(['commit', '-q', '-m', 'first'], seed)).code).toBe(0);
    expect((await git(['push', '-q', 'origin', 'HEAD:main'], seed)).code).toBe(0);
  });

  it('clones its project with read_repository, and is refused a push, another project, and a wrong username', async () => {
    const token = await createDeployToken('projects', engine.id, ['read_repository']);
    expect(token.token).toMatch(/^gldt-/);
    const clone = path.join(work, 'project-token');
    const cloned = await git(['clone', '-q', deployRemote(token, engine.path), clone]);
    expect(cloned.code).toBe(0);
    expect(existsSync(path.join(clone, 'README.md'))).toBe(true);
    expect((await git(['fetch', '-q', 'origin'], clone)).code).toBe(0);

    writeFileSync(path.join(clone, 'deploy.txt'), 'deployed\n');
    expect((await git(['add', 'deploy.txt'], clone)).code).toBe(0);
    expect((await git(['commit', '-q', '-m', 'from a deploy token'], clone)).code).toBe(0);
    const pushed = await git(['push', 'origin', 'HEAD:main'], clone);
    expect(pushed.code).not.toBe(0);
    expect(pushed.output).toContain('You are not allowed to upload code.');

    const elsewhere = await git(['clone', '-q', deployRemote(token, other.path), path.join(work, 'elsewhere')]);
    expect(elsewhere.code).not.toBe(0);
    expect(elsewhere.output).toContain("The project you were looking for could not be found or you don't have permission to view it.");

    const wrongUser = await git(['clone', '-q', deployRemote(token, engine.path, 'somebody'), path.join(work, 'wrong-user')]);
    expect(wrongUser.code).not.toBe(0);
    expect(wrongUser.output).toContain('HTTP Basic: Access denied');
  });

  it('clones any project of its group, and needs read_repository to clone at all', async () => {
    const groupToken = await createDeployToken('groups', groupId, ['read_repository']);
    expect((await git(['clone', '-q', deployRemote(groupToken, engine.path), path.join(work, 'group-token')])).code).toBe(0);
    const registryOnly = await createDeployToken('projects', engine.id, ['read_registry']);
    const refused = await git(['clone', '-q', deployRemote(registryOnly, engine.path), path.join(work, 'registry-only')]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain('You are not allowed to download code from this project.');
  });

  it('gets registry tokens for pulls with read_registry and pushes with write_registry, on its projects only', async () => {
    const reader = await createDeployToken('groups', groupId, ['read_registry']);
    const pulled = await registryAccess(reader, `repository:${engine.path}:pull,push`);
    expect(pulled).toEqual({ status: 200, sub: reader.username, access: [{ type: 'repository', name: engine.path, actions: ['pull'] }] });

    const writer = await createDeployToken('projects', engine.id, ['read_registry', 'write_registry']);
    expect((await registryAccess(writer, `repository:${engine.path}/web:pull,push`)).access).toEqual([
      { type: 'repository', name: `${engine.path}/web`, actions: ['pull', 'push'] },
    ]);
    expect((await registryAccess(writer, `repository:${other.path}:pull,push`)).access).toEqual([]);

    const gitOnly = await createDeployToken('projects', engine.id, ['read_repository']);
    expect((await registryAccess(gitOnly, `repository:${engine.path}:pull`)).status).toBe(403);
  });

  it('installs npm packages and downloads Maven files with read_package_registry, from its projects only', async () => {
    const tarball = Buffer.from('engine tarball');
    const published = await gateway
      .put(`/api/v4/projects/${engine.id}/packages/npm/@fleet%2fengine`)
      .set(asRoot)
      .send({
        name: '@fleet/engine',
        versions: {
          '1.0.0': { name: '@fleet/engine', version: '1.0.0', dist: { shasum: createHash('sha1').update(tarball).digest('hex') } },
        },
        _attachments: { '@fleet/engine-1.0.0.tgz': { data: tarball.toString('base64'), length: tarball.length } },
        'dist-tags': { latest: '1.0.0' },
      });
    expect(published.status).toBe(200);
    const pom = '<project><groupId>fleet</groupId><artifactId>engine</artifactId><version>1.0</version></project>';
    const mavenFile = `/api/v4/projects/${engine.id}/packages/maven/fleet/engine/1.0/engine-1.0.pom`;
    expect((await gateway.put(mavenFile).set(asRoot).set('Content-Type', 'application/octet-stream').send(pom)).status).toBe(200);

    const reader = await createDeployToken('groups', groupId, ['read_package_registry']);
    // npm's `_authToken` is a bearer token; the instance-level endpoint finds the project by the package's scope.
    let tarballUrl = '';
    for (const url of [`/api/v4/projects/${engine.id}/packages/npm/@fleet%2fengine`, '/api/v4/packages/npm/@fleet%2fengine']) {
      const document = await gateway.get(url).set('Authorization', `Bearer ${reader.token}`);
      expect(document.status).toBe(200);
      expect(document.body['dist-tags']).toEqual({ latest: '1.0.0' });
      tarballUrl = new URL(String(document.body.versions['1.0.0'].dist.tarball)).pathname;
    }
    expect(await download(tarballUrl, { 'Deploy-Token': reader.token })).toEqual({ status: 200, body: tarball.toString() });
    // Maven takes the token as the `Deploy-Token` header or as HTTP Basic credentials.
    expect(await download(mavenFile, { 'Deploy-Token': reader.token })).toEqual({ status: 200, body: pom });
    expect(await download(mavenFile, { Authorization: basic(reader) })).toEqual({ status: 200, body: pom });

    const gitOnly = await createDeployToken('projects', engine.id, ['read_repository']);
    expect((await gateway.get(mavenFile).set('Deploy-Token', gitOnly.token)).status).toBe(403);
    const otherProjects = await createDeployToken('projects', other.id, ['read_package_registry']);
    expect((await gateway.get(mavenFile).set('Deploy-Token', otherProjects.token)).status).toBe(404);
    expect((await gateway.get(mavenFile).set('Deploy-Token', 'gldt-not-a-token')).status).toBe(401);
  });

  it('publishes npm packages and deploys Maven files with write_package_registry, to its projects only', async () => {
    const tarball = Buffer.from('deployed tarball');
    const npmPublish = (version: string) => ({
      name: '@fleet/deployed',
      versions: { [version]: { name: '@fleet/deployed', version } },
      _attachments: { [`@fleet/deployed-${version}.tgz`]: { data: tarball.toString('base64'), length: tarball.length } },
      'dist-tags': { latest: version },
    });
    const npmPackage = `/api/v4/projects/${engine.id}/packages/npm/@fleet%2fdeployed`;
    const writer = await createDeployToken('groups', groupId, ['read_package_registry', 'write_package_registry']);
    // npm's `_authToken` is a bearer token.
    expect((await gateway.put(npmPackage).set('Authorization', `Bearer ${writer.token}`).send(npmPublish('1.0.0'))).status).toBe(200);
    const tagged = await gateway
      .put(`/api/v4/projects/${engine.id}/packages/npm/-/package/@fleet%2fdeployed/dist-tags/stable`)
      .set('Deploy-Token', writer.token)
      .set('Content-Type', 'application/json')
      .send('"1.0.0"');
    expect(tagged.status).toBe(204);
    const document = await gateway.get(npmPackage).set('Deploy-Token', writer.token);
    expect(document.body['dist-tags']).toEqual({ latest: '1.0.0', stable: '1.0.0' });

    const pom = '<project><groupId>fleet</groupId><artifactId>deployed</artifactId><version>2.0</version></project>';
    const mavenFile = `/api/v4/projects/${engine.id}/packages/maven/fleet/deployed/2.0/deployed-2.0.pom`;
    const deployed = await gateway
      .put(mavenFile)
      .set('Authorization', basic(writer))
      .set('Content-Type', 'application/octet-stream')
      .send(pom);
    expect(deployed.status).toBe(200);
    expect(await download(mavenFile, { 'Deploy-Token': writer.token })).toEqual({ status: 200, body: pom });

    // read_package_registry alone only reads; a token of another project does not see this one; nor do deleting or deprecating.
    const reader = await createDeployToken('projects', engine.id, ['read_package_registry']);
    expect((await gateway.put(npmPackage).set('Deploy-Token', reader.token).send(npmPublish('1.0.1'))).status).toBe(403);
    const readerDeploy = await gateway.put(mavenFile).set('Deploy-Token', reader.token).set('Content-Type', 'application/octet-stream');
    expect(readerDeploy.status).toBe(403);
    const elsewhere = await createDeployToken('projects', other.id, ['write_package_registry']);
    expect((await gateway.put(npmPackage).set('Deploy-Token', elsewhere.token).send(npmPublish('1.0.2'))).status).toBe(404);
    expect((await gateway.put(mavenFile).set('Deploy-Token', elsewhere.token).send(pom)).status).toBe(404);
    const unpublish = await gateway.delete(`${npmPackage}/-rev/1`).set('Deploy-Token', writer.token);
    expect(unpublish.status).toBe(403);
    const deprecate = await gateway
      .put(npmPackage)
      .set('Deploy-Token', writer.token)
      .set('npm-command', 'deprecate')
      .send(npmPublish('1.0.0'));
    expect(deprecate.status).toBe(403);
    expect((await gateway.put(npmPackage).set('Deploy-Token', 'gldt-not-a-token').send(npmPublish('1.0.3'))).status).toBe(401);
    expect(Object.keys((await gateway.get(npmPackage).set('Deploy-Token', writer.token)).body.versions)).toEqual(['1.0.0']);
  });

  it('uploads and downloads generic packages as GitLab lets deploy tokens (Deploy-Token header or HTTP Basic)', async () => {
    const file = `/api/v4/projects/${engine.id}/packages/generic/firmware/1.0.0/dist/image.bin`;
    const writer = await createDeployToken('projects', engine.id, ['read_package_registry', 'write_package_registry']);
    const uploaded = await gateway
      .put(file)
      .set('Deploy-Token', writer.token)
      .set('Content-Type', 'application/octet-stream')
      .send('image');
    expect(uploaded.status).toBe(201);
    const reader = await createDeployToken('groups', groupId, ['read_package_registry']);
    expect(await download(file, { Authorization: basic(reader) })).toEqual({ status: 200, body: 'image' });
    expect(await download(file, { 'Deploy-Token': writer.token })).toEqual({ status: 200, body: 'image' });

    // read_package_registry alone only reads; a token of another project does not see this one.
    const refused = await gateway.put(file).set('Deploy-Token', reader.token).set('Content-Type', 'application/octet-stream').send('x');
    expect(refused.status).toBe(403);
    const elsewhere = await createDeployToken('projects', other.id, ['read_package_registry', 'write_package_registry']);
    expect((await gateway.get(file).set('Deploy-Token', elsewhere.token)).status).toBe(404);
    expect((await gateway.get(file).set('Deploy-Token', 'gldt-not-a-token')).status).toBe(401);
    const packages = await gateway.get(`/api/v4/projects/${engine.id}/packages`).query({ package_type: 'generic' }).set(asRoot);
    expect(packages.body.map((item: { name: string }) => item.name)).toEqual(['firmware']);
  });

  it('authenticates no API route', async () => {
    const token = await createDeployToken('projects', engine.id, ['read_repository', 'read_registry']);
    for (const headers of [{ 'PRIVATE-TOKEN': token.token }, { Authorization: `Bearer ${token.token}` }]) {
      expect((await gateway.get(`/api/v4/projects/${engine.id}`).set(headers)).status).toBe(401);
    }
  });

  it('is refused at once once revoked or expired', async () => {
    const revoked = await createDeployToken('projects', engine.id, ['read_repository', 'read_registry']);
    expect((await git(['ls-remote', deployRemote(revoked, engine.path)])).code).toBe(0);
    expect((await registryAccess(revoked, `repository:${engine.path}:pull`)).status).toBe(200);
    expect((await gateway.delete(`/api/v4/projects/${engine.id}/deploy_tokens/${revoked.id}`).set(asRoot)).status).toBe(204);
    const afterRevocation = await git(['ls-remote', deployRemote(revoked, engine.path)]);
    expect(afterRevocation.code).not.toBe(0);
    expect(afterRevocation.output).toContain('HTTP Basic: Access denied');
    expect((await registryAccess(revoked, `repository:${engine.path}:pull`)).status).toBe(401);

    const expiring = await createDeployToken('projects', engine.id, ['read_repository']);
    expect((await git(['ls-remote', deployRemote(expiring, engine.path)])).code).toBe(0);
    await identity.query(`update deploy_tokens set expires_at = now() - interval '1 minute' where id = $1`, [expiring.id]);
    expect((await git(['ls-remote', deployRemote(expiring, engine.path)])).code).not.toBe(0);
  });
});
