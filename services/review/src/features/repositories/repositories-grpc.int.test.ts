/**
 * The repositories' gRPC methods through a real server and the generated client (identity's and
 * the admin service's answers come from fakes): the configured storages, and a new project's
 * repository created on the storage the weights draw, once.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { FixedApplicationSettings } from '@platform/admin-client';
import { FakeIdentityAccess } from '@platform/identity-client';
import { GrpcReviewRepositories } from '@platform/review-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, TEST_INTERNAL_SECRET, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { hashedDiskPath } from './repository-storages.ts';

const settings = new FixedApplicationSettings({ repositoryStoragesWeighted: { default: 0, second: 100 } });
let harness: ServiceHarness<RunningService>;
let client: GrpcReviewRepositories;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'review-repositories-grpc-'));
  harness = await startServiceHarness({
    label: 'review_repositories_grpc',
    env: {
      KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`,
      DATA_DIR: dataDir,
      REPOSITORY_STORAGES: `second=${path.join(dataDir, 'second')},fast=${path.join(dataDir, 'fast')}`,
    },
    start: (env) =>
      startService(reviewService(readConfig(env), { identityAccess: new FakeIdentityAccess(), applicationSettings: settings })),
  });
  client = new GrpcReviewRepositories({ address: `127.0.0.1:${harness.service.grpcPort}`, internalSecret: TEST_INTERNAL_SECRET });
}, 120_000);

afterAll(async () => {
  client?.close();
  await harness?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('lists the configured storages, default among them', async () => {
  expect(await client.list()).toEqual(['default', 'second', 'fast']);
});

it("creates a new project's repository on the storage the weights draw, and answers the same storage again", async () => {
  expect(await client.create({ projectId: 41, forkedFromProjectId: null })).toBe('second');
  expect(existsSync(path.join(dataDir, 'second', hashedDiskPath(41)))).toBe(true);
  settings.set({ repositoryStoragesWeighted: { default: 100 } });
  expect(await client.create({ projectId: 41, forkedFromProjectId: null })).toBe('second');
  expect(await harness.sql('select project_id, storage from repositories')).toEqual([{ project_id: '41', storage: 'second' }]);
});
