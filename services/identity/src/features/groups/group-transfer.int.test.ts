/** Group transfers against real PostgreSQL and Kafka: paths below follow, access follows the new ancestry, GitLab's refusals. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GroupTransferred } from '@platform/proto/identity/v1/namespace-events';
import type { Caller } from '@platform/auth';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';
import { GROUP_TRANSFER_ERRORS } from './group-transfer-service.ts';

type UserCaller = Caller & { kind: 'user' };

let kit: IdentityHarness;
let owner: UserCaller;
let alphaDeveloper: UserCaller;
let betaDeveloper: UserCaller;
let stranger: UserCaller;
let noGroups: UserCaller;
/** Group ids by full path, as created. */
const ids: Record<string, number> = {};

async function createGroup(caller: Caller, body: Record<string, unknown>) {
  const response = await kit.api.post('/api/v4/groups').set(kit.as(caller)).send(body);
  if (response.status !== 201) throw new Error(`creating group: ${response.status} ${JSON.stringify(response.body)}`);
  ids[response.body.full_path as string] = response.body.id as number;
  return response.body as { id: number; full_path: string };
}

async function addMember(groupId: number, user: UserCaller, accessLevel: number, by: Caller = owner) {
  const response = await kit.api
    .post(`/api/v4/groups/${groupId}/members`)
    .set(kit.as(by))
    .send({ user_id: user.userId, access_level: accessLevel });
  if (response.status !== 201) throw new Error(`adding member: ${response.status} ${JSON.stringify(response.body)}`);
}

function transfer(caller: Caller, group: number | string, body: Record<string, unknown> = {}) {
  return kit.api
    .post(`/api/v4/groups/${encodeURIComponent(String(group))}/transfer`)
    .set(kit.as(caller))
    .send(body);
}

beforeAll(async () => {
  kit = await startIdentityHarness('group-transfer');
  owner = await kit.createCaller('towner');
  alphaDeveloper = await kit.createCaller('talpha');
  betaDeveloper = await kit.createCaller('tbeta');
  stranger = await kit.createCaller('tstranger');
  noGroups = await kit.createCaller('tnogroups', { can_create_group: false });

  const alpha = await createGroup(owner, { name: 'Alpha', path: 'alpha', visibility: 'public' });
  const team = await createGroup(owner, { name: 'Team', path: 'team', parent_id: alpha.id, visibility: 'public' });
  await createGroup(owner, { name: 'Sub', path: 'sub', parent_id: team.id, visibility: 'internal' });
  const app = await kit.api
    .post('/api/v4/projects')
    .set(kit.as(owner))
    .send({ name: 'App', path: 'app', namespace_id: team.id, visibility: 'public' });
  expect(app.status).toBe(201);
  const beta = await createGroup(owner, { name: 'Beta', path: 'beta', visibility: 'private' });
  const delta = await createGroup(owner, { name: 'Delta', path: 'delta', visibility: 'public' });
  await createGroup(owner, { name: 'Delta team', path: 'team', parent_id: delta.id, visibility: 'public' });
  const gamma = await createGroup(stranger, { name: 'Gamma', path: 'gamma', visibility: 'private' });
  await addMember(gamma.id, owner, 30, stranger);
  await addMember(alpha.id, alphaDeveloper, 30);
  await addMember(beta.id, betaDeveloper, 30);
  await addMember(team.id, noGroups, 50);
});

afterAll(async () => {
  await kit?.stop();
});

describe('POST /groups/:id/transfer', () => {
  it('moves a group under another parent: paths below follow, old paths are gone, visibility is lowered, access follows', async () => {
    const project = (await kit.api.get('/api/v4/projects/alpha%2Fteam%2Fapp').set(kit.as(alphaDeveloper))).body as { id: number };
    expect((await kit.api.get(`/api/v4/projects/${project.id}`).set(kit.as(betaDeveloper))).status).toBe(200);

    const response = await transfer(owner, 'alpha/team', { group_id: ids.beta });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: ids['alpha/team'],
      full_path: 'beta/team',
      full_name: 'Beta / Team',
      parent_id: ids.beta,
      visibility: 'private',
    });

    expect((await kit.api.get('/api/v4/groups/alpha%2Fteam').set(kit.as(owner))).status).toBe(404);
    expect((await kit.api.get('/api/v4/groups/beta%2Fteam%2Fsub').set(kit.as(owner))).body).toMatchObject({
      full_path: 'beta/team/sub',
      visibility: 'private',
    });
    const moved = await kit.api.get('/api/v4/projects/beta%2Fteam%2Fapp').set(kit.as(owner));
    expect(moved.body).toMatchObject({ id: project.id, path_with_namespace: 'beta/team/app', visibility: 'private' });
    expect((await kit.api.get('/api/v4/projects/alpha%2Fteam%2Fapp').set(kit.as(owner))).status).toBe(404);

    // Access inherited through Alpha ended; access through Beta began.
    expect((await kit.api.get(`/api/v4/projects/${project.id}`).set(kit.as(alphaDeveloper))).status).toBe(404);
    expect((await kit.api.get(`/api/v4/projects/${project.id}`).set(kit.as(betaDeveloper))).body).toMatchObject({
      permissions: { group_access: { access_level: 30 } },
    });

    const event = (await kit.outboxEvents('identity.group.transferred')).find((row) => row.aggregateId === String(ids['alpha/team']));
    expect(GroupTransferred.fromJSON(event?.data)).toMatchObject({
      group: { id: ids['alpha/team'], fullPath: 'beta/team', parentId: ids.beta, visibility: 'private' },
      previousFullPath: 'alpha/team',
      previousParentId: ids.alpha,
    });
  });

  it.each([
    ['a top-level group to the top level', () => ({ group: 'alpha', body: {} }), GROUP_TRANSFER_ERRORS.alreadyRoot],
    ['a group to its own parent', () => ({ group: 'beta/team', body: { group_id: ids.beta } }), GROUP_TRANSFER_ERRORS.sameParent],
    [
      'a group into a group where the caller may not create subgroups',
      () => ({ group: 'beta/team', body: { group_id: ids.gamma } }),
      GROUP_TRANSFER_ERRORS.permissions,
    ],
    [
      'a group where the parent has that path',
      () => ({ group: 'beta/team', body: { group_id: ids.delta } }),
      GROUP_TRANSFER_ERRORS.pathTaken,
    ],
    [
      'a group into its own subgroup',
      () => ({ group: 'beta/team', body: { group_id: ids['alpha/team/sub'] } }),
      GROUP_TRANSFER_ERRORS.intoSubgroup,
    ],
    ['a group into itself', () => ({ group: 'beta/team', body: { group_id: ids['alpha/team'] } }), GROUP_TRANSFER_ERRORS.intoSubgroup],
  ])('refuses to transfer %s with 400 and GitLab message', async (_case, given, message) => {
    const { group, body } = given();
    const response = await transfer(owner, group, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message });
  });

  it('answers 404 for an invisible or missing group, 403 below Owner, and changes nothing on refusal', async () => {
    expect((await transfer(stranger, 'beta/team', { group_id: ids.alpha })).status).toBe(404);
    expect((await transfer(betaDeveloper, 'beta/team', { group_id: ids.alpha })).status).toBe(403);
    expect(await transfer(owner, 'beta/team', { group_id: 999999 })).toMatchObject({
      status: 404,
      body: { message: '404 Group Not Found' },
    });
    expect((await transfer(owner, 'beta/team', { group_id: 'x' })).body).toEqual({ error: 'group_id is invalid' });
    expect((await kit.api.get('/api/v4/groups/beta%2Fteam%2Fsub').set(kit.as(owner))).body.full_path).toBe('beta/team/sub');
  });

  it('promotes a subgroup to the top level for those who may create groups', async () => {
    expect((await transfer(noGroups, 'beta/team', { group_id: '' })).body).toEqual({ message: GROUP_TRANSFER_ERRORS.permissions });
    const response = await transfer(owner, 'beta/team', { group_id: '' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ full_path: 'team', parent_id: null });
    expect((await kit.api.get('/api/v4/groups/team%2Fsub').set(kit.as(owner))).status).toBe(200);
    expect((await kit.api.get('/api/v4/projects/team%2Fapp').set(kit.as(owner))).body.path_with_namespace).toBe('team/app');
    // Back under Alpha for the listing below.
    expect((await transfer(owner, 'team', { group_id: ids.alpha })).body.full_path).toBe('alpha/team');
  });
});

describe('GET /groups/:id/transfer_locations', () => {
  it('lists the groups the caller owns, without the group, its descendants and its parent; Owner only', async () => {
    const response = await kit.api.get('/api/v4/groups/alpha%2Fteam/transfer_locations').set(kit.as(owner));
    expect(response.status).toBe(200);
    expect(response.headers['x-total']).toBe('3');
    expect((response.body as Array<{ full_path: string }>).map((group) => group.full_path)).toEqual(['beta', 'delta', 'delta/team']);
    expect(Object.keys(response.body[0]).sort()).toEqual(['avatar_url', 'full_name', 'full_path', 'id', 'name', 'web_url']);
    const searched = await kit.api.get('/api/v4/groups/alpha%2Fteam/transfer_locations?search=bet').set(kit.as(owner));
    expect((searched.body as Array<{ full_path: string }>).map((group) => group.full_path)).toEqual(['beta']);
    expect((await kit.api.get('/api/v4/groups/alpha%2Fteam/transfer_locations').set(kit.as(alphaDeveloper))).status).toBe(403);
  });
});
