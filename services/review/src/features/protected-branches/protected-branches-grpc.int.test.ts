/**
 * CheckBranchUpdate through a real gRPC server and review-client's client, against real PostgreSQL
 * and Kafka (identity's access answers come from a fake): who may push to a branch or merge into
 * it, its protection weighed, as an external CI's commit statuses on a protected branch need.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NotFoundError } from '@platform/errors';
import { FakeIdentityAccess } from '@platform/identity-client';
import { GrpcBranchUpdates } from '@platform/review-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, TEST_INTERNAL_SECRET, userCaller, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';

const developer = userCaller(51, 'dev');
const maintainer = userCaller(52, 'lead');
const reporter = userCaller(53, 'reader');
const stranger = userCaller(54, 'stranger');
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: 11, path: 'acme/guarded', levels: { 51: 30, 52: 40, 53: 20 } })
  .add({ resource: 'project', id: 12, path: 'acme/shelved', levels: { 51: 30, 52: 40 }, archived: true });
let harness: ServiceHarness<RunningService>;
let dataDir: string;
let branches: GrpcBranchUpdates;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'review-branch-updates-'));
  harness = await startServiceHarness({
    label: 'review_branch_updates',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users: new FixedUserDirectory([]) })),
  });
  branches = new GrpcBranchUpdates({ address: `127.0.0.1:${harness.service.grpcPort}`, internalSecret: TEST_INTERNAL_SECRET });
  // Maintainers push to `release`; developers may merge into `stable` without pushing to it.
  for (const protection of [
    { name: 'release', push_access_level: 40, merge_access_level: 40 },
    { name: 'stable', push_access_level: 40, merge_access_level: 30 },
  ]) {
    const created = await harness.api.post('/api/v4/projects/11/protected_branches').set(harness.as(maintainer)).send(protection);
    expect(created.status).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  branches?.close();
  await harness?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('CheckBranchUpdate', () => {
  it('lets those update a branch whom its protection lets push or merge, and developers any unprotected branch', async () => {
    const may = (caller: typeof developer, branch: string, projectId = 11) => branches.mayUpdate({ caller, projectId, branch });
    expect(await may(developer, 'release')).toBe(false);
    expect(await may(maintainer, 'release')).toBe(true);
    expect(await may(developer, 'stable')).toBe(true);
    expect(await may(developer, 'feature')).toBe(true);
    expect(await may(reporter, 'feature')).toBe(false);
    // An archived project is read-only, whoever asks.
    expect(await may(maintainer, 'feature', 12)).toBe(false);
    await expect(may(stranger, 'feature')).rejects.toBeInstanceOf(NotFoundError);
  });
});
