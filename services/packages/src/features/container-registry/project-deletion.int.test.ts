/**
 * A deleted project's container repositories against real PostgreSQL and Kafka: identity's event
 * queues one deletion per repository however often it comes, and the deletion keeps being retried
 * while the registry cannot be reached, forgetting nothing meanwhile. The registry here is an
 * address nothing listens on; the end-to-end test deletes in a real one.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess, identityEvents } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { publishEvents, startServiceHarness, waitFor, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { packagesService } from '../../main.ts';
import { deleteRepositoryJob } from './container-registry.jobs.ts';

let harness: ServiceHarness<RunningService>;
let dataDir: string;
const topicPrefix = `registry-project-deletion-${randomUUID()}.`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'registry-project-deletion-'));
  harness = await startServiceHarness({
    label: 'registry_project_deletion',
    env: {
      KAFKA_TOPIC_PREFIX: topicPrefix,
      KAFKA_GROUP_ID: `registry-project-deletion-${randomUUID()}`,
      DATA_DIR: dataDir,
      // Nothing listens there: every call to the registry fails to connect.
      REGISTRY_URL: 'http://127.0.0.1:1',
    },
    start: (env) => startService(packagesService(readConfig(env), { identityAccess: new FakeIdentityAccess() })),
  });
});

afterAll(async () => {
  await harness?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a deleted project's container repositories", () => {
  it('are queued for deletion once, and retried for longer than a few attempts while the registry cannot be reached', async () => {
    const repository = async (projectId: number, name: string, repositoryPath: string) => {
      const [row] = await harness.sql<{ id: string }>(
        `insert into container_repositories (project_id, project_path, namespace_ids, name, path, created_at)
         values ($1, $2, '[5]', $3, $4, now()) returning id`,
        [projectId, `acme/p${projectId}`, name, repositoryPath],
      );
      return row?.id;
    };
    const own = await repository(8, '', 'acme/p8');
    const web = await repository(8, 'web', 'acme/p8/web');
    const kept = await repository(9, '', 'acme/p9');
    await harness.sql(
      `insert into container_tags (repository_id, name, digest, pushed_at) values ($1, 'v1', 'sha256:${'a'.repeat(64)}', now())`,
      [own],
    );
    const project = {
      id: 8,
      name: 'p8',
      path: 'p8',
      pathWithNamespace: 'acme/p8',
      nameWithNamespace: 'acme / p8',
      namespaceId: 5,
      visibility: 'private',
      archived: false,
    };
    // Delivered twice, as at-least-once delivery may: one deletion job per repository all the same.
    const deleted = () => identityEvents.projectDeleted.event({ aggregateId: 8, data: { project } });
    await publishEvents({ topicPrefix, events: [deleted(), deleted()] });

    const jobs = () =>
      harness.sql<{ repository_id: number; state: string; attempts: number; last_error: string | null }>(
        `select (payload->>'repositoryId')::int as repository_id, state, attempts, last_error from background_jobs
         where kind = $1 order by repository_id`,
        [deleteRepositoryJob.kind],
      );
    // More attempts than a job gets by default (five): each retry waits longer than the last.
    const retried = await waitFor(
      async () => {
        const found = await jobs();
        if (found.length === 2 && found.every((job) => job.attempts > 5)) return found;
        throw new Error(`jobs so far: ${JSON.stringify(found)}`);
      },
      { what: 'the deletion jobs retried', timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(retried.map((job) => job.repository_id)).toEqual([Number(own), Number(web)]);
    for (const job of retried) {
      expect(job.state).toMatch(/^(pending|running)$/);
      expect(job.last_error).toEqual(expect.any(String));
    }
    const statuses = await harness.sql<{ id: string; status: string | null }>('select id, status from container_repositories order by id');
    expect(statuses).toEqual([
      { id: own, status: 'delete_scheduled' },
      { id: web, status: 'delete_scheduled' },
      { id: kept, status: null },
    ]);
    // Nothing is forgotten before the registry deleted it.
    expect(await harness.sql('select name from container_tags where repository_id = $1', [own])).toEqual([{ name: 'v1' }]);
  }, 120_000);
});
