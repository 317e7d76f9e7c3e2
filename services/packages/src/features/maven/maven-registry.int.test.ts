/**
 * Maven deploys against real PostgreSQL and Kafka (identity's access answers come from a fake):
 * the first file creates the version, later ones join it, a redeployed file takes the place of
 * the earlier one, and the version-less metadata package stays hidden.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { packagesService } from '../../main.ts';

const developer = userCaller(31, 'developer');
const access = new FakeIdentityAccess().add({ resource: 'project', id: 8, path: 'acme/lib', levels: { 31: 30 } });
let harness: ServiceHarness<RunningService>;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'maven-registry-'));
  harness = await startServiceHarness({
    label: 'maven_registry',
    env: { KAFKA_TOPIC_PREFIX: `maven-registry-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(packagesService(readConfig(env), { identityAccess: access })),
  });
});

afterAll(async () => {
  await harness?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const repository = '/api/v4/projects/8/packages/maven/com/acme/kit';
const deploy = (file: string, content: string) =>
  harness.api.put(`${repository}/${file}`).set(harness.as(developer)).send(Buffer.from(content));

describe('maven deploys', () => {
  it('creates the version with its first file, joins it with the next, and replaces a redeployed file', async () => {
    expect((await deploy('1.0.0/kit-1.0.0.jar', 'first jar')).status).toBe(200);
    expect((await deploy('1.0.0/kit-1.0.0.pom', '<project/>')).status).toBe(200);
    expect((await deploy('1.0.0/kit-1.0.0.jar', 'second jar')).status).toBe(200);

    const listed = await harness.api.get('/api/v4/projects/8/packages?package_type=maven').set(harness.as(developer));
    expect(listed.body).toEqual([expect.objectContaining({ name: 'com/acme/kit', version: '1.0.0', status: 'default' })]);
    const files = await harness.api.get(`/api/v4/projects/8/packages/${listed.body[0].id}/package_files`).set(harness.as(developer));
    expect(files.body.map((file: { file_name: string; size: number }) => [file.file_name, file.size])).toEqual([
      ['kit-1.0.0.jar', 10],
      ['kit-1.0.0.pom', 10],
    ]);
    const jar = await harness.api.get(`${repository}/1.0.0/kit-1.0.0.jar`).set(harness.as(developer)).buffer(true);
    expect(Buffer.from(jar.body as Buffer).toString()).toBe('second jar');
    const sha1 = await harness.api.get(`${repository}/1.0.0/kit-1.0.0.jar.sha1`).set(harness.as(developer));
    expect(sha1.text).toBe(createHash('sha1').update('second jar').digest('hex'));
  });

  it('keeps the version-less metadata package hidden, but serves its file', async () => {
    expect((await deploy('maven-metadata.xml', '<metadata/>')).status).toBe(200);
    const listed = await harness.api.get('/api/v4/projects/8/packages?package_type=maven').set(harness.as(developer));
    expect(listed.body.map((item: { version: string }) => item.version)).toEqual(['1.0.0']);
    const metadata = await harness.api.get(`${repository}/maven-metadata.xml`).set(harness.as(developer)).buffer(true);
    expect(metadata.status).toBe(200);
    expect(Buffer.from(metadata.body as Buffer).toString()).toBe('<metadata/>');
  });
});
