/**
 * `PackagesService.ListProjectsWithContainerTags` through a real gRPC server and the generated
 * client, against real PostgreSQL: a project counts when one of its repositories holds a tag.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { GrpcContainerRegistryTags } from '@platform/packages-client';
import { startService, type RunningService } from '@platform/service';
import { startServiceHarness, TEST_INTERNAL_SECRET, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { packagesService } from '../../main.ts';

let harness: ServiceHarness<RunningService>;
let dataDir: string;
let client: GrpcContainerRegistryTags;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'registry-grpc-test-'));
  harness = await startServiceHarness({
    label: 'registry_grpc',
    env: { KAFKA_TOPIC_PREFIX: `registry-grpc-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(packagesService(readConfig(env), { identityAccess: new FakeIdentityAccess() })),
  });
  client = new GrpcContainerRegistryTags({ address: `127.0.0.1:${harness.service.grpcPort}`, internalSecret: TEST_INTERNAL_SECRET });
});

afterAll(async () => {
  client?.close();
  await harness?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('ListProjectsWithContainerTags', () => {
  it('names the projects asked about whose repositories hold a tag', async () => {
    const repository = async (projectId: number, name: string) => {
      const [row] = await harness.sql<{ id: string }>(
        `insert into container_repositories (project_id, project_path, namespace_ids, name, path, created_at)
         values ($1, $2, '[5]', $3, $4, now()) returning id`,
        [projectId, `acme/p${projectId}`, name, name ? `acme/p${projectId}/${name}` : `acme/p${projectId}`],
      );
      return row?.id;
    };
    const tag = (repositoryId: string | undefined) =>
      harness.sql(
        `insert into container_tags (repository_id, name, digest, pushed_at) values ($1, 'v1', 'sha256:${'b'.repeat(64)}', now())`,
        [repositoryId],
      );
    await repository(11, '');
    await tag(await repository(11, 'web'));
    await repository(12, '');
    await tag(await repository(13, ''));
    await tag(await repository(14, ''));

    expect((await client.projectsWithTags([11, 12, 13, 15])).sort()).toEqual([11, 13]);
    expect(await client.projectsWithTags([12])).toEqual([]);
    expect(await client.projectsWithTags([])).toEqual([]);
  });
});
