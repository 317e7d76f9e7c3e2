/**
 * The Packages API on its own against real PostgreSQL and Kafka (identity's access answers come
 * from a fake): lists, single packages, files and deletion of what npm published.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { gitlabSchemaErrors, startServiceHarness, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { packagesService } from '../../main.ts';

const owner = userCaller(21, 'owner');
const reporter = userCaller(22, 'reporter');
const stranger = userCaller(23, 'stranger');
const access = new FakeIdentityAccess()
  .add({ resource: 'group', id: 5, path: 'acme', levels: { 21: 50, 22: 20 } })
  .add({ resource: 'project', id: 7, path: 'acme/app', namespaceIds: [5], levels: { 21: 50, 22: 20 } })
  .add({ resource: 'project', id: 8, path: 'acme/open', namespaceIds: [5], isPublic: true, levels: { 21: 50 } });
let harness: ServiceHarness<RunningService>;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'packages-test-'));
  harness = await startServiceHarness({
    label: 'packages',
    env: { KAFKA_TOPIC_PREFIX: `packages-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(packagesService(readConfig(env), { identityAccess: access })),
  });
});

afterAll(async () => {
  await harness?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the Packages API without packages', () => {
  it('lists none for a reporter, and hides a private project from strangers', async () => {
    const listed = await harness.api.get('/api/v4/projects/7/packages').set(harness.as(reporter));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([]);
    expect(gitlabSchemaErrors('packages/packages.json', listed.body)).toEqual([]);
    expect((await harness.api.get('/api/v4/projects/7/packages').set(harness.as(stranger))).status).toBe(404);
    expect((await harness.api.get('/api/v4/projects/7/packages/1').set(harness.as(owner))).status).toBe(404);
  });

  it('refuses unknown filters with GitLab-shaped errors', async () => {
    const response = await harness.api.get('/api/v4/projects/7/packages?order_by=size').set(harness.as(owner));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'order_by does not have a valid value' });
    expect(await readdir(dataDir)).toEqual([]);
  });
});
