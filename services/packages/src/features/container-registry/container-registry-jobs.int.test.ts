/**
 * The container registry's background jobs against real PostgreSQL: a job left running by a
 * process that died is taken up again once its lease ran out, while a job whose lease still runs
 * is left to its owner. The bulk deletions here match no tag, so no registry is needed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, waitFor, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { packagesService } from '../../main.ts';

let harness: ServiceHarness<RunningService>;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'registry-jobs-test-'));
  harness = await startServiceHarness({
    label: 'registry_jobs',
    env: { KAFKA_TOPIC_PREFIX: `registry-jobs-${randomUUID()}.`, DATA_DIR: dataDir, REGISTRY_JOB_POLL_INTERVAL_MS: '100' },
    start: (env) => startService(packagesService(readConfig(env), { identityAccess: new FakeIdentityAccess() })),
  });
});

afterAll(async () => {
  await harness?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('container registry jobs', () => {
  it('takes up a job whose process died once its lease ran out, and leaves a leased one alone', async () => {
    const [repository] = await harness.sql<{ id: string }>(
      `insert into container_repositories (project_id, project_path, namespace_ids, name, path, created_at)
       values (7, 'acme/app', '[5]', '', 'acme/app', now()) returning id`,
    );
    const params = JSON.stringify({ nameRegexDelete: 'nothing-matches' });
    const [abandoned] = await harness.sql<{ id: string }>(
      `insert into container_registry_jobs (kind, repository_id, params, state, attempts, locked_until, created_at)
       values ('cleanup_tags', $1, $2::jsonb, 'running', 1, now() - interval '1 minute', now()) returning id`,
      [repository?.id, params],
    );
    const [leased] = await harness.sql<{ id: string }>(
      `insert into container_registry_jobs (kind, repository_id, params, state, attempts, locked_until, created_at)
       values ('cleanup_tags', $1, $2::jsonb, 'running', 1, now() + interval '1 hour', now()) returning id`,
      [repository?.id, params],
    );
    const done = await waitFor(
      async () => {
        const [row] = await harness.sql<{ state: string; attempts: number }>(
          'select state, attempts from container_registry_jobs where id = $1',
          [abandoned?.id],
        );
        return row?.state === 'done' ? row : undefined;
      },
      { what: 'the abandoned job done' },
    );
    expect(done.attempts).toBe(2);
    const [untouched] = await harness.sql<{ state: string; attempts: number }>(
      'select state, attempts from container_registry_jobs where id = $1',
      [leased?.id],
    );
    expect(untouched).toEqual({ state: 'running', attempts: 1 });
  });
});
