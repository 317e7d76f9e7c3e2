/** Access requests against real PostgreSQL and Kafka: request, list, approve into a real membership, deny. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Caller } from '@platform/auth';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

type UserCaller = Caller & { kind: 'user' };

let kit: IdentityHarness;
let owner: UserCaller;
let maintainer: UserCaller;
let requester: UserCaller;
let second: UserCaller;
let groupId: number;
let projectId: number;

async function eventTypes(key: number): Promise<string[]> {
  const rows = await kit.sql<{ type: string }>(
    "select envelope->>'type' as type from outbox where key = $1 and envelope->>'type' like 'identity.access_request.%' order by id",
    [String(key)],
  );
  return rows.map((row) => row.type);
}

beforeAll(async () => {
  kit = await startIdentityHarness('access_requests');
  owner = await kit.createCaller('aowner');
  maintainer = await kit.createCaller('amaintainer');
  requester = await kit.createCaller('arequester');
  second = await kit.createCaller('asecond');
  groupId = (await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Club', path: 'club', visibility: 'internal' })).body.id;
  projectId = (
    await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'Board', namespace_id: groupId, visibility: 'internal' })
  ).body.id;
  await kit.api.post(`/api/v4/projects/${projectId}/members`).set(kit.as(owner)).send({ user_id: maintainer.userId, access_level: 40 });
});

afterAll(async () => {
  await kit?.stop();
});

describe('group access requests', () => {
  it('requests access once, lists it for owners, and approves it at Developer by default', async () => {
    const requested = await kit.api.post(`/api/v4/groups/${groupId}/access_requests`).set(kit.as(requester));
    expect(requested.status).toBe(201);
    expect(requested.body).toMatchObject({ id: requester.userId, username: 'arequester', name: 'User arequester', state: 'active' });
    expect(requested.body.requested_at).toEqual(expect.any(String));

    const twice = await kit.api.post(`/api/v4/groups/${groupId}/access_requests`).set(kit.as(requester));
    expect(twice.status).toBe(403);
    const asMember = await kit.api.post(`/api/v4/groups/${groupId}/access_requests`).set(kit.as(owner));
    expect(asMember.status).toBe(403);

    const listed = await kit.api.get(`/api/v4/groups/club/access_requests`).set(kit.as(owner));
    expect(listed.body).toEqual([expect.objectContaining({ id: requester.userId, requested_at: requested.body.requested_at })]);
    expect(listed.headers['x-total']).toBe('1');
    expect((await kit.api.get(`/api/v4/groups/${groupId}/access_requests`).set(kit.as(requester))).status).toBe(403);

    const members = await kit.api.get(`/api/v4/groups/${groupId}/members`).set(kit.as(owner));
    expect(members.body.map((member: { username: string }) => member.username)).toEqual(['aowner']);

    const approved = await kit.api.put(`/api/v4/groups/${groupId}/access_requests/${requester.userId}/approve`).set(kit.as(owner));
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: requester.userId, username: 'arequester', access_level: 30 });
    expect(approved.body).not.toHaveProperty('requested_at');
    const member = await kit.api.get(`/api/v4/groups/${groupId}/members/${requester.userId}`).set(kit.as(owner));
    expect(member.body.access_level).toBe(30);
    expect((await kit.api.get(`/api/v4/groups/${groupId}/access_requests`).set(kit.as(owner))).body).toEqual([]);
    expect(await eventTypes(groupId)).toEqual(['identity.access_request.requested', 'identity.access_request.approved']);
  });

  it('approves at a given level, Owner included for groups', async () => {
    await kit.api.post(`/api/v4/groups/${groupId}/access_requests`).set(kit.as(second));
    const approved = await kit.api
      .put(`/api/v4/groups/${groupId}/access_requests/${second.userId}/approve`)
      .set(kit.as(owner))
      .send({ access_level: 50 });
    expect(approved.body.access_level).toBe(50);
  });

  it('answers 404 for approving or denying a request that does not exist', async () => {
    const missing = await kit.api.put(`/api/v4/groups/${groupId}/access_requests/${maintainer.userId}/approve`).set(kit.as(owner));
    expect(missing.body).toEqual({ message: '404 Access Request Not Found' });
    expect((await kit.api.delete(`/api/v4/groups/${groupId}/access_requests/${maintainer.userId}`).set(kit.as(owner))).status).toBe(404);
  });

  it('refuses requests where they are disabled, and anonymous requests', async () => {
    await kit.api.put(`/api/v4/groups/${groupId}`).set(kit.as(owner)).send({ request_access_enabled: false });
    const closed = await kit.api.post(`/api/v4/groups/${groupId}/access_requests`).set(kit.as(maintainer));
    expect(closed.status).toBe(403);
    await kit.api.put(`/api/v4/groups/${groupId}`).set(kit.as(owner)).send({ request_access_enabled: true });
    expect((await kit.api.post(`/api/v4/groups/${groupId}/access_requests`).set(kit.as({ kind: 'anonymous' }))).status).toBe(401);
  });
});

describe('project access requests', () => {
  it('refuses Owner on approval, lets maintainers approve and deny, and requesters withdraw', async () => {
    const outsider = await kit.createCaller('aoutsider');
    const another = await kit.createCaller('aanother');
    expect((await kit.api.post(`/api/v4/projects/${projectId}/access_requests`).set(kit.as(outsider))).status).toBe(201);
    expect((await kit.api.post(`/api/v4/projects/club%2Fboard/access_requests`).set(kit.as(another))).status).toBe(201);
    // A member of the project's group already has access.
    expect((await kit.api.post(`/api/v4/projects/${projectId}/access_requests`).set(kit.as(requester))).status).toBe(403);

    const asOwnerLevel = await kit.api
      .put(`/api/v4/projects/${projectId}/access_requests/${outsider.userId}/approve`)
      .set(kit.as(maintainer))
      .send({ access_level: 50 });
    expect(asOwnerLevel.status).toBe(400);
    expect(asOwnerLevel.body).toEqual({ error: 'access_level does not have a valid value' });

    const approved = await kit.api
      .put(`/api/v4/projects/${projectId}/access_requests/${outsider.userId}/approve`)
      .set(kit.as(maintainer))
      .send({ access_level: 20 });
    expect(approved.body.access_level).toBe(20);
    const access = await kit.api.get(`/api/v4/projects/${projectId}`).set(kit.as(outsider));
    expect(access.body.permissions.project_access.access_level).toBe(20);

    expect((await kit.api.delete(`/api/v4/projects/${projectId}/access_requests/${another.userId}`).set(kit.as(outsider))).status).toBe(
      403,
    );
    expect((await kit.api.delete(`/api/v4/projects/${projectId}/access_requests/${another.userId}`).set(kit.as(another))).status).toBe(204);
    expect((await kit.api.get(`/api/v4/projects/${projectId}/access_requests`).set(kit.as(maintainer))).body).toEqual([]);
    expect(await eventTypes(projectId)).toEqual([
      'identity.access_request.requested',
      'identity.access_request.requested',
      'identity.access_request.approved',
      'identity.access_request.denied',
    ]);
  });

  it('denies a request for maintainers', async () => {
    const late = await kit.createCaller('alate');
    await kit.api.post(`/api/v4/projects/${projectId}/access_requests`).set(kit.as(late));
    expect((await kit.api.delete(`/api/v4/projects/${projectId}/access_requests/${late.userId}`).set(kit.as(maintainer))).status).toBe(204);
    expect((await kit.api.get(`/api/v4/projects/${projectId}/members/all/${late.userId}`).set(kit.as(maintainer))).status).toBe(404);
  });
});
