/**
 * Packages following their projects, against real PostgreSQL and Kafka: identity's events on the
 * broker (published here, identity's answers from a fake) move a project's packages with it when
 * it or a group above it is renamed or transferred, and remove them, files included, when the
 * project is deleted.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess, identityEvents } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { publishEvents, startServiceHarness, userCaller, waitFor, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { packagesService } from '../../main.ts';

const topicPrefix = `packages-projects-${randomUUID()}.`;
const owner = userCaller(41, 'owner');
const access = new FakeIdentityAccess()
  .add({ resource: 'group', id: 20, path: 'north', levels: { 41: 50 } })
  .add({ resource: 'group', id: 21, path: 'south', levels: { 41: 50 } })
  .add({ resource: 'project', id: 30, path: 'north/moved', namespaceIds: [20], levels: { 41: 50 } })
  .add({ resource: 'project', id: 31, path: 'north/doomed', namespaceIds: [20], levels: { 41: 50 } })
  .add({ resource: 'project', id: 32, path: 'north/stays', namespaceIds: [20], levels: { 41: 50 } });
let harness: ServiceHarness<RunningService>;
let dataDir: string;

function publish(projectId: number, name: string) {
  const tarball = Buffer.from(`the tarball of ${name}`);
  const body = {
    name,
    versions: {
      '1.0.0': {
        name,
        version: '1.0.0',
        dist: {
          shasum: createHash('sha1').update(tarball).digest('hex'),
          integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
        },
      },
    },
    _attachments: { [`${name}-1.0.0.tgz`]: { data: tarball.toString('base64'), length: tarball.length } },
    'dist-tags': { latest: '1.0.0' },
  };
  return harness.api.put(`/api/v4/projects/${projectId}/packages/npm/${name}`).set(harness.as(owner)).send(body);
}

const snapshot = (id: number, pathWithNamespace: string, namespaceId: number) => ({
  id,
  name: pathWithNamespace.split('/').pop() ?? '',
  path: pathWithNamespace.split('/').pop() ?? '',
  pathWithNamespace,
  nameWithNamespace: pathWithNamespace,
  namespaceId,
  visibility: 'private',
  archived: false,
});

const groupPackages = async (groupId: number) =>
  (await harness.api.get(`/api/v4/groups/${groupId}/packages`).set(harness.as(owner))).body as Array<{
    name: string;
    project_path: string;
    _links: { web_path: string };
  }>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'packages-projects-'));
  harness = await startServiceHarness({
    label: 'packages_projects',
    env: { KAFKA_TOPIC_PREFIX: topicPrefix, KAFKA_GROUP_ID: `packages-projects-${randomUUID()}`, DATA_DIR: dataDir },
    start: (env) => startService(packagesService(readConfig(env), { identityAccess: access })),
  });
  for (const [projectId, name] of [
    [30, 'moved'],
    [31, 'doomed'],
    [32, 'stays'],
  ] as const) {
    expect((await publish(projectId, name)).status).toBe(200);
  }
});

afterAll(async () => {
  await harness?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a project's packages", () => {
  it('move with a transferred project: listed under the new group with the new path, no longer under the old', async () => {
    access.move(30, { pathWithNamespace: 'south/moved', namespaceIds: [21] });
    await publishEvents({
      topicPrefix,
      events: [
        identityEvents.projectTransferred.event({
          aggregateId: 30,
          data: { project: snapshot(30, 'south/moved', 21), previousPathWithNamespace: 'north/moved', previousNamespaceId: 20 },
        }),
      ],
    });
    const listed = await waitFor(
      async () => {
        const found = await groupPackages(21);
        return found.length === 1 ? found : undefined;
      },
      { what: 'the moved package under the new group' },
    );
    expect(listed[0]).toMatchObject({
      name: 'moved',
      project_path: 'south/moved',
      _links: { web_path: expect.stringMatching(/^\/south\/moved\/-\/packages\/\d+$/) },
    });
    expect((await groupPackages(20)).map((item) => item.name).sort()).toEqual(['doomed', 'stays']);
  });

  it("follow a renamed group's path", async () => {
    access.move(32, { pathWithNamespace: 'northern/stays', namespaceIds: [20] });
    access.move(31, { pathWithNamespace: 'northern/doomed', namespaceIds: [20] });
    const group = {
      id: 20,
      name: 'Northern',
      path: 'northern',
      fullPath: 'northern',
      fullName: 'Northern',
      parentId: 0,
      visibility: 'private',
    };
    await publishEvents({
      topicPrefix,
      events: [
        identityEvents.groupUpdated.event({
          aggregateId: 20,
          data: { group, changes: [{ attribute: 'path', from: 'north', to: 'northern' }] },
        }),
      ],
    });
    const paths = await waitFor(
      async () => {
        const found = (await groupPackages(20)).map((item) => item.project_path).sort();
        return found.every((projectPath) => projectPath.startsWith('northern/')) ? found : undefined;
      },
      { what: 'the renamed group path on its packages' },
    );
    expect(paths).toEqual(['northern/doomed', 'northern/stays']);
  });

  it("go with a deleted project, files included, leaving other projects' packages", async () => {
    const [doomed] = await harness.sql<{ id: string }>("select id from packages where name = 'doomed'");
    const files = async () =>
      (await readdir(path.join(dataDir, 'files'), { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).length;
    expect(await files()).toBe(3);
    access.remove(31);
    await publishEvents({
      topicPrefix,
      events: [identityEvents.projectDeleted.event({ aggregateId: 31, data: { project: snapshot(31, 'northern/doomed', 20) } })],
    });
    await waitFor(async () => ((await harness.sql('select id from packages where project_id = 31')).length === 0 ? true : undefined), {
      what: "the deleted project's packages gone",
    });
    expect(await harness.sql('select id from package_files where package_id = $1', [doomed?.id])).toEqual([]);
    expect(await files()).toBe(2);
    expect((await groupPackages(20)).map((item) => item.name)).toEqual(['stays']);
  });
});
