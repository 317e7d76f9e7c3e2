/** Project transfers against real PostgreSQL and Kafka: by namespace id or path, GitLab's refusals, visibility, events. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ProjectTransferred } from '@platform/proto/identity/v1/namespace-events';
import { adminCaller } from '@platform/testing';
import type { Caller } from '@platform/auth';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';
import { PROJECT_TRANSFER_ERRORS } from './project-transfer-service.ts';

type UserCaller = Caller & { kind: 'user' };

let kit: IdentityHarness;
let owner: UserCaller;
let maintainer: UserCaller;
let stranger: UserCaller;
/** Group ids by full path. */
const groups: Record<string, number> = {};
let projectId: number;

async function createGroup(caller: Caller, body: Record<string, unknown>) {
  const response = await kit.api.post('/api/v4/groups').set(kit.as(caller)).send(body);
  if (response.status !== 201) throw new Error(`creating group: ${response.status} ${JSON.stringify(response.body)}`);
  groups[response.body.full_path as string] = response.body.id as number;
}

function transfer(caller: Caller, project: number | string, namespace: unknown) {
  return kit.api
    .put(`/api/v4/projects/${encodeURIComponent(String(project))}/transfer`)
    .set(kit.as(caller))
    .send(namespace === undefined ? {} : { namespace });
}

const failure = (field: string, reason: string) => ({ message: `Failed to transfer project {:${field}=>["${reason}"]}` });

beforeAll(async () => {
  kit = await startIdentityHarness('project-transfer');
  owner = await kit.createCaller('prowner');
  maintainer = await kit.createCaller('prmaintainer');
  stranger = await kit.createCaller('prstranger');
  await createGroup(owner, { name: 'Source', path: 'source', visibility: 'public' });
  await createGroup(owner, { name: 'Target', path: 'target', visibility: 'internal' });
  await createGroup(owner, { name: 'Locked', path: 'locked', visibility: 'public', project_creation_level: 'noone' });
  await createGroup(stranger, { name: 'Foreign', path: 'foreign', visibility: 'public' });
  await createGroup(stranger, { name: 'Shared', path: 'shared', visibility: 'public' });
  for (const [group, level] of [
    ['foreign', 30],
    ['shared', 40],
  ] as const) {
    await kit.api
      .post(`/api/v4/groups/${groups[group]}/members`)
      .set(kit.as(stranger))
      .send({ user_id: owner.userId, access_level: level });
  }
  const project = await kit.api
    .post('/api/v4/projects')
    .set(kit.as(owner))
    .send({ name: 'Web', path: 'web', namespace_id: groups.source, visibility: 'public' });
  projectId = project.body.id;
  await kit.api.post(`/api/v4/projects/${projectId}/members`).set(kit.as(owner)).send({ user_id: maintainer.userId, access_level: 40 });
  await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Web', path: 'web', namespace_id: groups.locked });
  await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Other', path: 'other', namespace_id: groups.shared });
});

afterAll(async () => {
  await kit?.stop();
});

describe('PUT /projects/:id/transfer', () => {
  it('moves a project to a group named by path, lowering its visibility to the group; the old path is gone', async () => {
    const response = await transfer(owner, 'source/web', 'target');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: projectId,
      path_with_namespace: 'target/web',
      name_with_namespace: 'Target / Web',
      visibility: 'internal',
      namespace: { id: groups.target, full_path: 'target' },
    });
    expect((await kit.api.get('/api/v4/projects/source%2Fweb').set(kit.as(owner))).status).toBe(404);
    expect((await kit.api.get('/api/v4/projects/target%2Fweb').set(kit.as(owner))).body.id).toBe(projectId);
    const event = (await kit.outboxEvents('identity.project.transferred')).find((row) => row.aggregateId === String(projectId));
    expect(ProjectTransferred.fromJSON(event?.data)).toMatchObject({
      project: { id: projectId, pathWithNamespace: 'target/web', namespaceId: groups.target, visibility: 'internal' },
      previousPathWithNamespace: 'source/web',
      previousNamespaceId: groups.source,
    });
  });

  it('moves a project to its owner’s personal namespace by id, and to a group where they maintain', async () => {
    const personal = (await kit.api.get('/api/v4/namespaces/prowner').set(kit.as(owner))).body as { id: number };
    expect((await transfer(owner, projectId, personal.id)).body.path_with_namespace).toBe('prowner/web');
    expect((await transfer(owner, projectId, groups.shared)).body.path_with_namespace).toBe('shared/web');
    expect((await transfer(owner, projectId, 'target')).body.path_with_namespace).toBe('target/web');
  });

  it.each([
    ['its own namespace', () => 'target', failure('new_namespace', PROJECT_TRANSFER_ERRORS.sameNamespace)],
    ['a group where the caller is a developer', () => 'foreign', failure('new_namespace', PROJECT_TRANSFER_ERRORS.permission)],
    ['a group where nobody may create projects', () => groups.locked, failure('new_namespace', PROJECT_TRANSFER_ERRORS.permission)],
    ['somebody else’s personal namespace', () => 'prstranger', { message: '404 Namespace Not Found' }],
  ])('refuses a transfer into %s', async (_case, namespace, body) => {
    const response = await transfer(owner, projectId, namespace());
    expect(response.body).toEqual(body);
    expect(response.status).toBe(body.message.startsWith('404') ? 404 : 400);
  });

  it('refuses a path or name another project of the namespace has', async () => {
    await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'web', path: 'web-2', namespace_id: groups.source });
    expect((await transfer(owner, projectId, 'source')).body).toEqual(failure('name', 'has already been taken'));
    await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Other web', path: 'web', namespace_id: groups.shared });
    expect((await transfer(owner, projectId, 'shared')).body).toEqual(failure('new_namespace', PROJECT_TRANSFER_ERRORS.pathTaken));
  });

  it('answers 404 for a missing namespace, 403 below Owner (or to a non-member of an internal project), 400 without a namespace', async () => {
    expect((await transfer(owner, projectId, 'nowhere')).body).toEqual({ message: '404 Namespace Not Found' });
    expect((await transfer(maintainer, projectId, 'source')).status).toBe(403);
    expect((await transfer(stranger, 'target/web', 'foreign')).status).toBe(403);
    expect((await transfer(owner, projectId, undefined)).body).toEqual({ error: 'namespace is missing' });
    expect((await kit.api.get(`/api/v4/projects/${projectId}`).set(kit.as(owner))).body.path_with_namespace).toBe('target/web');
  });
});

describe('GET /projects/:id/transfer_locations', () => {
  it('lists the groups the caller may transfer projects into, without the project’s own; Owner only', async () => {
    const response = await kit.api.get(`/api/v4/projects/${projectId}/transfer_locations`).set(kit.as(owner));
    expect(response.status).toBe(200);
    expect((response.body as Array<{ full_path: string }>).map((group) => group.full_path)).toEqual(['shared', 'source']);
    expect((await kit.api.get(`/api/v4/projects/${projectId}/transfer_locations`).set(kit.as(maintainer))).status).toBe(403);
  });
});

describe('POST /groups/:id/projects/:project_id', () => {
  it('transfers a project into the group for administrators, answering the group', async () => {
    expect((await kit.api.post(`/api/v4/groups/${groups.foreign}/projects/${projectId}`).set(kit.as(owner))).status).toBe(403);
    const response = await kit.api.post(`/api/v4/groups/${groups.foreign}/projects/${projectId}`).set(kit.as(adminCaller()));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ id: groups.foreign, full_path: 'foreign' });
    expect((response.body.projects as Array<{ id: number }>).map((project) => project.id)).toContain(projectId);
    const again = await kit.api.post(`/api/v4/groups/${groups.foreign}/projects/${projectId}`).set(kit.as(adminCaller()));
    expect(again.body).toEqual(failure('new_namespace', PROJECT_TRANSFER_ERRORS.sameNamespace));
  });
});
