/** Memberships against real PostgreSQL and Kafka: member endpoints, inheritance, and the access RPCs other services use. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callUnary, createChannelCredentials, grpc } from '@platform/grpc';
import { InputError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { CheckAccessRequest, CheckAccessResponse, IdentityServiceClient, NamespaceKind, Visibility } from '@platform/proto/identity/v1';
import { adminCaller } from '@platform/testing';
import type { Caller } from '@platform/auth';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

type UserCaller = Caller & { kind: 'user' };

let kit: IdentityHarness;
let grpcClient: IdentityServiceClient;
const admin = adminCaller();
const anonymous: Caller = { kind: 'anonymous' };
let owner: UserCaller;
let maintainer: UserCaller;
let developer: UserCaller;
let guest: UserCaller;
let outsider: UserCaller;
let partner: UserCaller;
let stranger: UserCaller;
let topId: number;
let subId: number;
let projectId: number;
let personalProjectId: number;

async function usernames(path: string, caller: Caller, query: Record<string, unknown> = {}) {
  const response = await kit.api.get(path).query(query).set(kit.as(caller));
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return (response.body as Array<{ username: string; access_level: number }>)
    .map((member) => `${member.username}:${member.access_level}`)
    .sort();
}

beforeAll(async () => {
  kit = await startIdentityHarness('members');
  grpcClient = kit.grpc;
  owner = await kit.createCaller('mowner');
  maintainer = await kit.createCaller('mmaintainer');
  developer = await kit.createCaller('mdeveloper');
  guest = await kit.createCaller('mguest');
  outsider = await kit.createCaller('moutsider');
  partner = await kit.createCaller('mpartner');
  stranger = await kit.createCaller('mstranger');

  topId = (await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Top', path: 'top', visibility: 'private' })).body.id;
  subId = (
    await kit.api.post('/api/v4/groups').set(kit.as(owner)).send({ name: 'Sub', path: 'sub', parent_id: topId, visibility: 'private' })
  ).body.id;
  projectId = (await kit.api.post('/api/v4/projects').set(kit.as(owner)).send({ name: 'App', namespace_id: subId })).body.id;
  personalProjectId = (await kit.api.post('/api/v4/projects').set(kit.as(outsider)).send({ name: 'Mine', visibility: 'public' })).body.id;
  for (const [user, level] of [
    [maintainer, 40],
    [developer, 30],
  ] as const) {
    await kit.api.post(`/api/v4/groups/${topId}/members`).set(kit.as(owner)).send({ user_id: user.userId, access_level: level });
  }
});

afterAll(async () => {
  grpcClient?.close();
  await kit?.stop();
});

describe('POST /groups/:id/members and /projects/:id/members', () => {
  it('adds a member, recording identity.member.added, and answers GitLab’s member view', async () => {
    const response = await kit.api
      .post(`/api/v4/groups/${subId}/members`)
      .set(kit.as(owner))
      .send({ username: 'mguest', access_level: 10, expires_at: '2999-12-31' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: guest.userId,
      username: 'mguest',
      name: 'User mguest',
      state: 'active',
      web_url: 'http://platform.test/mguest',
      access_level: 10,
      expires_at: '2999-12-31',
      membership_state: 'active',
      created_by: { id: owner.userId, username: 'mowner' },
    });
    const events = await kit.sql<{ envelope: { data: { member: unknown } } }>(
      "select envelope from outbox where envelope->>'type' = 'identity.member.added' and key = $1",
      [String(subId)],
    );
    expect(events.map((row) => row.envelope.data.member)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          username: 'mguest',
          accessLevel: 10,
          sourceFullPath: 'top/sub',
          sourceType: 'MEMBERSHIP_SOURCE_TYPE_GROUP',
        }),
      ]),
    );
  });

  it('answers 409 for an existing member and 404 for an unknown user', async () => {
    const again = await kit.api
      .post(`/api/v4/groups/${subId}/members`)
      .set(kit.as(owner))
      .send({ user_id: guest.userId, access_level: 20 });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Member already exists' });
    const unknown = await kit.api.post(`/api/v4/groups/${subId}/members`).set(kit.as(owner)).send({ user_id: 999999, access_level: 20 });
    expect(unknown.body).toEqual({ message: '404 User Not Found' });
  });

  it('answers 400 for bad input: Owner on a project, a missing level, no user, a past expiry', async () => {
    const ownerOnProject = await kit.api
      .post(`/api/v4/projects/${projectId}/members`)
      .set(kit.as(owner))
      .send({ user_id: partner.userId, access_level: 50 });
    expect(ownerOnProject.body).toEqual({ error: 'access_level does not have a valid value' });
    const noLevel = await kit.api.post(`/api/v4/projects/${projectId}/members`).set(kit.as(owner)).send({ user_id: partner.userId });
    expect(noLevel.body).toEqual({ error: 'access_level is missing' });
    const noUser = await kit.api.post(`/api/v4/projects/${projectId}/members`).set(kit.as(owner)).send({ access_level: 30 });
    expect(noUser.body).toEqual({ error: 'user_id, username are missing, exactly one parameter must be provided' });
    const past = await kit.api
      .post(`/api/v4/projects/${projectId}/members`)
      .set(kit.as(owner))
      .send({ user_id: partner.userId, access_level: 30, expires_at: '2001-01-01' });
    expect(past.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
    const badDate = await kit.api
      .post(`/api/v4/projects/${projectId}/members`)
      .set(kit.as(owner))
      .send({ user_id: partner.userId, access_level: 30, expires_at: 'soon' });
    expect(badDate.status).toBe(400);
  });

  it('takes Owner to manage group members and Maintainer for project members', async () => {
    expect(
      (await kit.api.post(`/api/v4/groups/${subId}/members`).set(kit.as(maintainer)).send({ user_id: partner.userId, access_level: 10 }))
        .status,
    ).toBe(403);
    expect(
      (
        await kit.api
          .post(`/api/v4/projects/${projectId}/members`)
          .set(kit.as(developer))
          .send({ user_id: partner.userId, access_level: 10 })
      ).status,
    ).toBe(403);
    expect(
      (
        await kit.api
          .post(`/api/v4/projects/${projectId}/members`)
          .set(kit.as(outsider))
          .send({ user_id: partner.userId, access_level: 10 })
      ).status,
    ).toBe(404);
    const byMaintainer = await kit.api
      .post(`/api/v4/projects/${projectId}/members`)
      .set(kit.as(maintainer))
      .send({ user_id: partner.userId, access_level: 20 });
    expect(byMaintainer.status).toBe(201);
  });
});

describe('GET members lists', () => {
  it('lists direct members, or with /all everyone whose access counts, at their highest level', async () => {
    // Whoever creates a subgroup owns it directly, as in GitLab.
    expect(await usernames(`/api/v4/groups/${subId}/members`, owner)).toEqual(['mguest:10', 'mowner:50']);
    expect(await usernames(`/api/v4/groups/${subId}/members/all`, owner)).toEqual([
      'mdeveloper:30',
      'mguest:10',
      'mmaintainer:40',
      'mowner:50',
    ]);
    const promoted = await kit.api
      .post(`/api/v4/groups/${subId}/members`)
      .set(kit.as(owner))
      .send({ user_id: developer.userId, access_level: 40 });
    expect(promoted.status).toBe(201);
    expect(await usernames(`/api/v4/projects/${projectId}/members/all`, owner)).toEqual([
      'mdeveloper:40',
      'mguest:10',
      'mmaintainer:40',
      'mowner:50',
      'mpartner:20',
    ]);
    expect(await usernames(`/api/v4/projects/${projectId}/members`, owner)).toEqual(['mpartner:20']);
  });

  it('counts members of groups the project is shared with, capped by the share', async () => {
    const crew = (await kit.api.post('/api/v4/groups').set(kit.as(outsider)).send({ name: 'Crew', path: 'crew' })).body.id;
    await kit.api.post(`/api/v4/groups/${crew}/members`).set(kit.as(outsider)).send({ user_id: owner.userId, access_level: 10 });
    await kit.api.post(`/api/v4/projects/${projectId}/share`).set(kit.as(owner)).send({ group_id: crew, group_access: 20 });
    expect(await usernames(`/api/v4/projects/${projectId}/members/all`, owner)).toContain('moutsider:20');
    const single = await kit.api.get(`/api/v4/projects/${projectId}/members/all/${outsider.userId}`).set(kit.as(owner));
    expect(single.body).toMatchObject({ username: 'moutsider', access_level: 20 });
    expect((await kit.api.get(`/api/v4/projects/${projectId}/members/${outsider.userId}`).set(kit.as(owner))).body).toEqual({
      message: '404 Member Not Found',
    });
  });

  it('filters by query, user_ids and skip_users, and paginates', async () => {
    expect(await usernames(`/api/v4/groups/${subId}/members/all`, owner, { query: 'MAINT' })).toEqual(['mmaintainer:40']);
    expect(await usernames(`/api/v4/groups/${subId}/members/all`, owner, { user_ids: `${guest.userId},${owner.userId}` })).toEqual([
      'mguest:10',
      'mowner:50',
    ]);
    // An array spelled as GitLab's clients send it (`skip_users[]=1&skip_users[]=2`); a bare repeated key keeps its last value, as in Rack.
    expect(await usernames(`/api/v4/groups/${subId}/members/all`, owner, { 'skip_users[]': [guest.userId, owner.userId] })).toEqual([
      'mdeveloper:40',
      'mmaintainer:40',
    ]);
    const page = await kit.api.get(`/api/v4/groups/${subId}/members/all`).query({ per_page: 3, page: 2 }).set(kit.as(owner));
    expect(page.body).toHaveLength(1);
    expect(page.headers).toMatchObject({ 'x-total': '4', 'x-total-pages': '2', 'x-page': '2', 'x-prev-page': '1', 'x-next-page': '' });
  });

  it('lets anyone who sees the source list its members, and hides invisible sources', async () => {
    expect(await usernames(`/api/v4/projects/${personalProjectId}/members`, anonymous)).toEqual(['moutsider:50']);
    expect((await kit.api.get(`/api/v4/groups/${subId}/members`).set(kit.as(stranger))).status).toBe(404);
    // A member of a project inside a private group sees the group too.
    expect((await kit.api.get(`/api/v4/groups/${subId}/members`).set(kit.as(partner))).status).toBe(200);
    expect((await kit.api.get(`/api/v4/groups/${encodeURIComponent('top/sub')}/members`).set(kit.as(guest))).status).toBe(200);
  });
});

describe('PUT and DELETE members', () => {
  it('changes a level, recording identity.member.updated', async () => {
    const response = await kit.api.put(`/api/v4/groups/${subId}/members/${guest.userId}`).set(kit.as(owner)).send({ access_level: 20 });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ username: 'mguest', access_level: 20, expires_at: '2999-12-31' });
    expect(
      (await kit.api.put(`/api/v4/groups/${subId}/members/${partner.userId}`).set(kit.as(owner)).send({ access_level: 20 })).status,
    ).toBe(404);
    expect(
      (await kit.api.put(`/api/v4/groups/${subId}/members/${guest.userId}`).set(kit.as(owner)).send({ access_level: 'high' })).status,
    ).toBe(400);
  });

  it('keeps a group’s last owner and a personal project’s owner', async () => {
    const demote = await kit.api.put(`/api/v4/groups/${topId}/members/${owner.userId}`).set(kit.as(owner)).send({ access_level: 40 });
    expect(demote.status).toBe(403);
    expect((await kit.api.delete(`/api/v4/groups/${topId}/members/${owner.userId}`).set(kit.as(owner))).status).toBe(403);
    expect((await kit.api.delete(`/api/v4/projects/${personalProjectId}/members/${outsider.userId}`).set(kit.as(outsider))).status).toBe(
      403,
    );
    await kit.api.post(`/api/v4/groups/${topId}/members`).set(kit.as(owner)).send({ user_id: partner.userId, access_level: 50 });
    expect(
      (await kit.api.put(`/api/v4/groups/${topId}/members/${partner.userId}`).set(kit.as(owner)).send({ access_level: 30 })).status,
    ).toBe(200);
  });

  it('lets members leave and managers remove, but not others', async () => {
    expect((await kit.api.delete(`/api/v4/groups/${subId}/members/${guest.userId}`).set(kit.as(developer))).status).toBe(403);
    expect((await kit.api.delete(`/api/v4/groups/${subId}/members/${guest.userId}`).set(kit.as(guest))).status).toBe(204);
    expect((await kit.api.get(`/api/v4/groups/${subId}`).set(kit.as(guest))).status).toBe(404);
    expect((await kit.api.delete(`/api/v4/groups/${subId}/members/${guest.userId}`).set(kit.as(owner))).status).toBe(404);
    expect((await kit.api.delete(`/api/v4/projects/${projectId}/members/${partner.userId}`).set(kit.as(owner))).status).toBe(204);
  });
});

describe('gRPC ResolveProject, ResolveGroup and CheckAccess', () => {
  it('resolves ids and URL paths, NOT_FOUND for unknown ones', async () => {
    const byPath = await callUnary(grpcClient.resolveProject.bind(grpcClient), { idOrPath: 'TOP/sub/app' });
    expect(byPath.project).toMatchObject({
      id: projectId,
      pathWithNamespace: 'top/sub/app',
      nameWithNamespace: 'Top / Sub / App',
      visibility: Visibility.VISIBILITY_PRIVATE,
      namespace: { id: subId, kind: NamespaceKind.NAMESPACE_KIND_GROUP, fullPath: 'top/sub', parentId: topId },
      namespaceAncestorIds: [topId, subId],
      webUrl: 'http://platform.test/top/sub/app',
    });
    const byId = await callUnary(grpcClient.resolveProject.bind(grpcClient), { idOrPath: String(personalProjectId) });
    expect(byId.project?.namespace?.kind).toBe(NamespaceKind.NAMESPACE_KIND_USER);
    const group = await callUnary(grpcClient.resolveGroup.bind(grpcClient), { idOrPath: 'top/sub' });
    expect(group.group).toMatchObject({ id: subId, fullName: 'Top / Sub', ancestorIds: [topId, subId], parentId: topId });
    await expect(callUnary(grpcClient.resolveProject.bind(grpcClient), { idOrPath: 'top/nothing' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(callUnary(grpcClient.resolveGroup.bind(grpcClient), { idOrPath: '424242' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(callUnary(grpcClient.resolveGroup.bind(grpcClient), { idOrPath: ' ' })).rejects.toBeInstanceOf(InputError);
  });

  it('answers allowed with the effective level, NOT_FOUND where invisible, allowed=false where too low', async () => {
    const check = (caller: Caller, resource: { projectIdOrPath: string } | { groupIdOrPath: string }, minAccessLevel: number) =>
      callUnary(grpcClient.checkAccess.bind(grpcClient), { minAccessLevel, ...resource }, { caller });
    const asDeveloper = await check(developer, { projectIdOrPath: String(projectId) }, 30);
    expect(asDeveloper).toMatchObject({ allowed: true, accessLevel: 40, isAdmin: false, project: { id: projectId } });
    const asMaintainerForOwner = await check(maintainer, { groupIdOrPath: 'top' }, 50);
    expect(asMaintainerForOwner).toMatchObject({ allowed: false, accessLevel: 40, group: { id: topId } });
    await expect(check(stranger, { projectIdOrPath: 'top/sub/app' }, 0)).rejects.toBeInstanceOf(NotFoundError);
    await expect(check(anonymous, { groupIdOrPath: 'top' }, 0)).rejects.toBeInstanceOf(NotFoundError);
    const anonymousOnPublic = await check(anonymous, { projectIdOrPath: String(personalProjectId) }, 0);
    expect(anonymousOnPublic).toMatchObject({ allowed: true, accessLevel: 0 });
    expect((await check(anonymous, { projectIdOrPath: String(personalProjectId) }, 10)).allowed).toBe(false);
    expect(await check(admin, { projectIdOrPath: 'top/sub/app' }, 50)).toMatchObject({ allowed: true, isAdmin: true });
    const throughShare = await check(outsider, { projectIdOrPath: String(projectId) }, 20);
    expect(throughShare).toMatchObject({ allowed: true, accessLevel: 20 });
    await expect(callUnary(grpcClient.checkAccess.bind(grpcClient), { minAccessLevel: 0 }, { caller: admin })).rejects.toBeInstanceOf(
      InputError,
    );
  });

  it('takes the acting user from the signed caller only: a user id smuggled into the request is ignored', async () => {
    // Field 1 once named the acting user; a stranger puts the administrator's id (1) there by hand.
    const smuggled = (request: CheckAccessRequest) =>
      Buffer.concat([Buffer.from(CheckAccessRequest.encode(request).finish()), Buffer.from([0x08, 0x01])]);
    const smuggling = (
      request: CheckAccessRequest,
      metadata: grpc.Metadata,
      options: Partial<grpc.CallOptions>,
      callback: (error: grpc.ServiceError | null, response: CheckAccessResponse) => void,
    ) =>
      grpcClient.makeUnaryRequest(
        '/platform.identity.v1.IdentityService/CheckAccess',
        smuggled,
        (bytes: Buffer) => CheckAccessResponse.decode(bytes),
        request,
        metadata,
        options,
        callback as grpc.requestCallback<CheckAccessResponse>,
      );
    const asStranger = callUnary(smuggling, { minAccessLevel: 0, projectIdOrPath: 'top/sub/app' }, { caller: stranger });
    await expect(asStranger).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses RPCs without the internal credentials', async () => {
    const unsigned = new IdentityServiceClient(`127.0.0.1:${kit.service.grpcPort}`, createChannelCredentials());
    try {
      await expect(callUnary(unsigned.resolveProject.bind(unsigned), { idOrPath: 'top/sub/app' })).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      await expect(callUnary(unsigned.getUsers.bind(unsigned), { ids: [1] })).rejects.toBeInstanceOf(UnauthorizedError);
      await expect(
        callUnary(unsigned.checkAccess.bind(unsigned), { minAccessLevel: 0, projectIdOrPath: 'top/sub/app' }, { caller: admin }),
      ).rejects.toBeInstanceOf(UnauthorizedError);
    } finally {
      unsigned.close();
    }
  });
});

describe('access across the hierarchy', () => {
  it('ignores expired memberships', async () => {
    await kit.sql("update members set expires_at = current_date - 1 where source_type = 'Group' and source_id = $1 and user_id = $2", [
      topId,
      maintainer.userId,
    ]);
    expect((await kit.api.get(`/api/v4/groups/${topId}`).set(kit.as(maintainer))).status).toBe(404);
    expect(await usernames(`/api/v4/groups/${topId}/members`, admin)).not.toContain('mmaintainer:40');
  });
});
