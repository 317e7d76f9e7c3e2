/**
 * The npm registry on its own against real PostgreSQL and Kafka (identity's access answers come
 * from a fake): what it refuses, and that nothing half-written stays behind when it does.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { packagesService } from '../../main.ts';

const developer = userCaller(31, 'developer');
const reporter = userCaller(32, 'reporter');
const access = new FakeIdentityAccess()
  .add({ resource: 'group', id: 9, path: 'tools', levels: { 31: 30, 32: 20 } })
  .add({ resource: 'project', id: 11, path: 'tools/kit', namespaceIds: [9], levels: { 31: 30, 32: 20 } })
  .add({ resource: 'project', id: 12, path: 'tools/other', namespaceIds: [9], levels: { 31: 30 } });
let harness: ServiceHarness<RunningService>;
let dataDir: string;

const tarball = Buffer.from('a small tarball');
const sha1 = createHash('sha1').update(tarball).digest('hex');
const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;

function publishBody(options: { version?: string; shasum?: string } = {}) {
  const version = options.version ?? '1.0.0';
  return {
    name: '@tools/kit',
    versions: { [version]: { name: '@tools/kit', version, dist: { shasum: options.shasum ?? sha1, integrity } } },
    // npm names the tarball after the package, scope included.
    _attachments: { [`@tools/kit-${version}.tgz`]: { data: tarball.toString('base64'), length: tarball.length } },
    'dist-tags': { latest: version },
  };
}

const publish = (body: unknown, caller = developer, project = 11) =>
  harness.api
    .put(`/api/v4/projects/${project}/packages/npm/@tools%2fkit`)
    .set(harness.as(caller))
    .send(body as object);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'npm-test-'));
  harness = await startServiceHarness({
    label: 'packages_npm',
    env: { KAFKA_TOPIC_PREFIX: `npm-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(packagesService(readConfig(env), { identityAccess: access })),
  });
});

afterAll(async () => {
  await harness?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm publish', () => {
  it.each([
    ['a tarball that does not match its shasum', { ...publishBody({ shasum: '0'.repeat(40) }) }, 'dist shasum does not match the tarball'],
    ['a name other than the URL', { ...publishBody(), name: '@tools/other' }, 'name does not match the package of the URL'],
    [
      'two versions at once',
      { ...publishBody(), versions: { ...publishBody().versions, ...publishBody({ version: '2.0.0' }).versions } },
      'versions must hold exactly one version',
    ],
    ['no tarball', { ...publishBody(), _attachments: {} }, '_attachments must hold exactly one tarball'],
    ['a version that is no semantic version', publishBody({ version: 'one' }), 'versions[one][version] is invalid'],
  ])('refuses %s with 400, keeping no file', async (_what, body, error) => {
    const response = await publish(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error });
    expect(await readdir(path.join(dataDir, 'tmp')).catch(() => [])).toEqual([]);
    expect(await harness.sql('select id from packages')).toEqual([]);
  });

  it('stores a version once, with its digests, and refuses it again with 403', async () => {
    expect((await publish(publishBody())).status).toBe(200);
    const again = await publish(publishBody());
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ message: '403 Forbidden - Package already exists: @tools/kit@1.0.0' });
    const [row] = await harness.sql<{ file_name: string; size: string; file_sha1: string }>(
      'select file_name, size, file_sha1 from package_files',
    );
    expect(row).toEqual({ file_name: '@tools/kit-1.0.0.tgz', size: String(tarball.length), file_sha1: sha1 });
    expect((await harness.outboxEvents('packages.package.published')).map((event) => event.data)).toEqual([
      expect.objectContaining({ name: '@tools/kit', version: '1.0.0', packageType: 'npm', projectPath: 'tools/kit' }),
    ]);
  });

  it('lets reporters read but not publish, and hides the project from others', async () => {
    expect((await publish(publishBody({ version: '1.0.1' }), reporter)).status).toBe(403);
    expect((await publish(publishBody({ version: '1.0.1' }), reporter, 12)).status).toBe(404);
    const document = await harness.api.get('/api/v4/projects/11/packages/npm/@tools%2fkit').set(harness.as(reporter));
    expect(document.status).toBe(200);
    expect(document.body['dist-tags']).toEqual({ latest: '1.0.0' });
    expect(document.body.versions['1.0.0'].dist).toMatchObject({ shasum: sha1, integrity });
    expect(document.body.versions['1.0.0'].dist.tarball).toMatch(
      /\/api\/v4\/projects\/11\/packages\/npm\/%40tools%2Fkit\/-\/%40tools%2Fkit-1\.0\.0\.tgz$/,
    );
    const tarballPath = new URL(document.body.versions['1.0.0'].dist.tarball as string).pathname;
    const file = await harness.api.get(tarballPath).set(harness.as(reporter));
    expect(file.status).toBe(200);
    expect(Buffer.from(file.body as Buffer)).toEqual(tarball);
    // The name without the scope, npm's convention and what older lockfiles hold, still downloads.
    const unscoped = await harness.api.get('/api/v4/projects/11/packages/npm/@tools%2fkit/-/kit-1.0.0.tgz').set(harness.as(reporter));
    expect(unscoped.status).toBe(200);
    expect(Buffer.from(unscoped.body as Buffer)).toEqual(tarball);
    const [published] = await harness.sql<{ id: string }>("select id from packages where version = '1.0.0'");
    const files = await harness.api.get(`/api/v4/projects/11/packages/${published?.id}/package_files`).set(harness.as(reporter));
    expect(files.body.map((item: { file_name: string }) => item.file_name)).toEqual(['@tools/kit-1.0.0.tgz']);
  });

  it('sets dist-tags only on versions that exist, from a bare JSON string', async () => {
    const tag = (version: unknown) =>
      harness.api
        .put('/api/v4/projects/11/packages/npm/-/package/@tools%2fkit/dist-tags/stable')
        .set(harness.as(developer))
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(version));
    expect((await tag('9.9.9')).status).toBe(404);
    expect((await tag({ version: '1.0.0' })).status).toBe(400);
    expect((await tag('1.0.0')).status).toBe(204);
    const tags = await harness.api.get('/api/v4/projects/11/packages/npm/-/package/@tools%2fkit/dist-tags').set(harness.as(reporter));
    expect(tags.body).toEqual({ latest: '1.0.0', stable: '1.0.0' });
    expect(
      (
        await harness.api
          .put('/api/v4/projects/11/packages/npm/-/package/@tools%2fkit/dist-tags/1.0.0')
          .set(harness.as(developer))
          .send('"1.0.0"')
      ).status,
    ).toBe(400);
  });
});
