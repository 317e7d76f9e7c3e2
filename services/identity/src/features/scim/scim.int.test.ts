/**
 * Group single sign-on, SCIM tokens and the SCIM 2.0 Users API against real PostgreSQL and Kafka,
 * driven as a group owner and as an identity provider would drive them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type request from 'supertest';
import pg from 'pg';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

const FINGERPRINT = 'a1b2c3d4e5f60718293a4b5c6d7e8f9011223344';
const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const anonymous = callerHeader({ kind: 'anonymous' });

let harness: IdentityHarness;
let api: IdentityHarness['api'];
let db: pg.Client;
let owner: { id: number; headers: Record<string, string> };

async function query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  return (await db.query<Row>(text, values)).rows;
}

beforeAll(async () => {
  harness = await startIdentityHarness('scim');
  api = harness.api;
  db = new pg.Client({ connectionString: harness.databaseUrl });
  await db.connect();
  const created = await createUser('group-owner');
  owner = { id: created.id, headers: callerHeader(userCaller(created.id, 'group-owner')) };
});

afterAll(async () => {
  await db?.end();
  await harness?.stop();
});

async function createUser(username: string, email = `${username}@example.com`): Promise<{ id: number; username: string }> {
  const response = await api
    .post('/api/v4/users')
    .set(callerHeader(adminCaller()))
    .send({ email, name: `User ${username}`, username, password: 'a-long-enough-password', skip_confirmation: true });
  expect(response.status).toBe(201);
  return { id: response.body.id, username };
}

async function createGroup(path: string, options: { parentId?: number } = {}): Promise<number> {
  const response = await api
    .post('/api/v4/groups')
    .set(owner.headers)
    .send({ name: path, path, ...(options.parentId ? { parent_id: options.parentId } : {}) });
  expect(response.status).toBe(201);
  return response.body.id as number;
}

async function configureSaml(groupId: number, body: Record<string, unknown> = {}) {
  return api
    .put(`/api/v4/groups/${groupId}/saml`)
    .set(owner.headers)
    .send({ enabled: true, sso_url: 'https://idp.example.com/sso/saml', certificate_fingerprint: FINGERPRINT, ...body });
}

async function issueScimToken(groupId: number): Promise<string> {
  const response = await api.post(`/api/v4/groups/${groupId}/scim/token`).set(owner.headers);
  expect(response.status).toBe(201);
  return response.body.token as string;
}

/** A top-level group with single sign-on and a SCIM token, as a group owner sets it up. */
async function provisionedGroup(path: string): Promise<{ id: number; path: string; samlProviderId: number; token: string }> {
  const id = await createGroup(path);
  const saml = await configureSaml(id);
  expect(saml.status).toBe(200);
  return { id, path, samlProviderId: saml.body.id, token: await issueScimToken(id) };
}

/** The identity provider's side: anonymous to the gateway, authenticated by the group's SCIM token. */
function scim(group: { path: string; token: string }) {
  const base = `/api/scim/v2/groups/${encodeURIComponent(group.path)}/Users`;
  const as = (test: request.Test) =>
    test.set(anonymous).set('Authorization', `Bearer ${group.token}`).set('Accept', 'application/scim+json');
  return {
    list: (query: Record<string, string | number> = {}) => as(api.get(base).query(query)),
    get: (id: string) => as(api.get(`${base}/${encodeURIComponent(id)}`)),
    create: (body: unknown) => as(api.post(`${base}/`).set('Content-Type', 'application/scim+json')).send(JSON.stringify(body)),
    patch: (id: string, operations: unknown[]) =>
      as(api.patch(`${base}/${encodeURIComponent(id)}`).set('Content-Type', 'application/scim+json')).send(
        JSON.stringify({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations }),
      ),
    delete: (id: string) => as(api.delete(`${base}/${encodeURIComponent(id)}`)),
  };
}

function scimUser(overrides: { externalId: string; userName: string; email: string; name?: string }) {
  return {
    schemas: [SCIM_USER_SCHEMA],
    externalId: overrides.externalId,
    active: true,
    userName: overrides.userName,
    emails: [{ primary: true, type: 'work', value: overrides.email }],
    name: { formatted: overrides.name ?? 'Jane Doe', familyName: 'Doe', givenName: 'Jane' },
    meta: { resourceType: 'User' },
  };
}

function expectScimError(response: request.Response, status: number, detail: string | RegExp, scimType?: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/scim+json');
  expect(response.body).toEqual({
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail: typeof detail === 'string' ? detail : expect.stringMatching(detail),
  });
}

/** The account's owner agrees, through the API, to the link a group's identity provider asked for. */
async function confirmLink(user: { id: number; username: string }, groupId: number): Promise<void> {
  const response = await api.post(`/api/v4/user/scim_links/${groupId}/confirm`).set(callerHeader(userCaller(user.id, user.username)));
  expect(response.status).toBe(204);
}

async function membershipOf(groupId: number, userId: number): Promise<number | undefined> {
  const rows = await query<{ access_level: number }>(
    "select access_level from members where source_type = 'Group' and source_id = $1 and user_id = $2 and requested_at is null",
    [groupId, userId],
  );
  return rows[0]?.access_level;
}

async function samlIdentitiesOf(userId: number) {
  return query<{ extern_uid: string; saml_provider_id: number }>(
    "select extern_uid, saml_provider_id from identities where user_id = $1 and provider = 'group_saml' order by id",
    [userId],
  );
}

async function eventsOfGroup(groupId: number, typePrefix: string) {
  const rows = await query<{ envelope: { type: string; actor: unknown; data: Record<string, unknown> } }>(
    "select envelope from outbox where key = $1 and envelope->>'type' like $2 order by id",
    [String(groupId), `${typePrefix}%`],
  );
  return rows.map((row) => row.envelope);
}

describe('PUT and GET /groups/:id/saml', () => {
  it('lets the owner configure single sign-on and read it back; its id is the saml_provider_id', async () => {
    const groupId = await createGroup('saml-config');
    const before = await api.get(`/api/v4/groups/${groupId}/saml`).set(owner.headers);
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ message: '404 SAML Provider Not Found' });

    const configured = await configureSaml(groupId);
    expect(configured.status).toBe(200);
    expect(configured.body).toEqual({
      id: expect.any(Number),
      enabled: true,
      sso_url: 'https://idp.example.com/sso/saml',
      certificate_fingerprint: FINGERPRINT,
    });
    const read = await api.get(`/api/v4/groups/saml-config/saml`).set(owner.headers);
    expect(read.body).toEqual(configured.body);

    const disabled = await api.put(`/api/v4/groups/${groupId}/saml`).set(owner.headers).send({ enabled: false });
    expect(disabled.body).toEqual({ ...configured.body, enabled: false });
    const events = await eventsOfGroup(groupId, 'identity.saml_provider.');
    expect(events.map((event) => event.type)).toEqual(['identity.saml_provider.created', 'identity.saml_provider.updated']);
    expect(events[0]?.actor).toMatchObject({ id: owner.id, username: 'group-owner' });
  });

  it('requires every field to create the provider and validates them', async () => {
    const groupId = await createGroup('saml-invalid');
    const missing = await api.put(`/api/v4/groups/${groupId}/saml`).set(owner.headers).send({ enabled: true });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'sso_url is missing, certificate_fingerprint is missing' });
    const invalid = await configureSaml(groupId, { sso_url: 'http://idp.example.com/sso', certificate_fingerprint: 'abc' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      message: {
        sso_url: ['is blocked: Only allowed schemes are https'],
        certificate_fingerprint: ['must be a SHA-1 fingerprint: 40 hexadecimal digits, optionally in colon-separated pairs'],
      },
    });
    const notAUrl = await configureSaml(groupId, { sso_url: 'idp' });
    expect(notAUrl.body).toEqual({ message: { sso_url: ['must be a valid URL'] } });
    const wrongType = await configureSaml(groupId, { enabled: 'sometimes' });
    expect(wrongType.body).toEqual({ error: 'enabled is invalid' });
    const colons = await configureSaml(groupId, { certificate_fingerprint: FINGERPRINT.match(/../g)!.join(':') });
    expect(colons.status).toBe(200);
  });

  it('is for owners and administrators of top-level groups only', async () => {
    const groupId = await createGroup('saml-access');
    const developer = await createUser('saml-developer');
    const added = await api.post(`/api/v4/groups/${groupId}/members`).set(owner.headers).send({ user_id: developer.id, access_level: 30 });
    expect(added.status).toBe(201);
    const asDeveloper = await api
      .put(`/api/v4/groups/${groupId}/saml`)
      .set(callerHeader(userCaller(developer.id, developer.username)))
      .send({});
    expect(asDeveloper.status).toBe(403);
    const outsider = await createUser('saml-outsider');
    const asOutsider = await api.get(`/api/v4/groups/${groupId}/saml`).set(callerHeader(userCaller(outsider.id, outsider.username)));
    expect(asOutsider.status).toBe(404);
    expect(asOutsider.body).toEqual({ message: '404 Group Not Found' });
    const asAnonymous = await api.get(`/api/v4/groups/${groupId}/saml`).set(anonymous);
    expect(asAnonymous.status).toBe(401);
    const asAdmin = await api
      .put(`/api/v4/groups/${groupId}/saml`)
      .set(callerHeader(adminCaller()))
      .send({ enabled: true, sso_url: 'https://idp.example.com/sso', certificate_fingerprint: FINGERPRINT });
    expect(asAdmin.status).toBe(200);

    const subgroupId = await createGroup('saml-sub', { parentId: groupId });
    const onSubgroup = await configureSaml(subgroupId);
    expect(onSubgroup.status).toBe(400);
    expect(onSubgroup.body).toEqual({ error: 'SAML single sign-on can only be configured for a top-level group' });
    const unknown = await configureSaml(999999);
    expect(unknown.status).toBe(404);
  });
});

describe('POST and DELETE /groups/:id/scim/token', () => {
  it('issues a token stored only as a digest, replaces it, and disables SCIM on delete', async () => {
    const group = await provisionedGroup('scim-tokens');
    expect(group.token).toMatch(/^glsoat-[\w-]{20,}$/);
    const stored = await query<{ token_digest: string }>('select token_digest from scim_tokens where group_id = $1', [group.id]);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token_digest).not.toContain(group.token);
    expect((await scim(group).list()).status).toBe(200);

    const replacement = await issueScimToken(group.id);
    expectScimError(await scim(group).list(), 401, 'Unauthorized');
    expect((await scim({ ...group, token: replacement }).list()).status).toBe(200);

    const revoked = await api.delete(`/api/v4/groups/${group.id}/scim/token`).set(owner.headers);
    expect(revoked.status).toBe(204);
    expectScimError(await scim({ ...group, token: replacement }).list(), 404, 'Group scim-tokens does not have SCIM enabled');
    const again = await api.delete(`/api/v4/groups/${group.id}/scim/token`).set(owner.headers);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 SCIM token Not Found' });

    const events = await eventsOfGroup(group.id, 'identity.scim_token.');
    expect(events.map((event) => [event.type, event.data])).toEqual([
      // proto3 JSON leaves out false.
      ['identity.scim_token.created', { group: { id: group.id, fullPath: 'scim-tokens' } }],
      ['identity.scim_token.created', { group: { id: group.id, fullPath: 'scim-tokens' }, replaced: true }],
      ['identity.scim_token.revoked', { group: { id: group.id, fullPath: 'scim-tokens' } }],
    ]);
  });

  it('is for owners only', async () => {
    const groupId = await createGroup('scim-token-access');
    const maintainer = await createUser('token-maintainer');
    await api.post(`/api/v4/groups/${groupId}/members`).set(owner.headers).send({ user_id: maintainer.id, access_level: 40 });
    const asMaintainer = callerHeader(userCaller(maintainer.id, maintainer.username));
    expect((await api.post(`/api/v4/groups/${groupId}/scim/token`).set(asMaintainer)).status).toBe(403);
    expect((await api.delete(`/api/v4/groups/${groupId}/scim/token`).set(asMaintainer)).status).toBe(403);
    expect((await api.post(`/api/v4/groups/${groupId}/scim/token`).set(anonymous)).status).toBe(401);
  });
});

describe('SCIM authentication', () => {
  let group: Awaited<ReturnType<typeof provisionedGroup>>;
  let otherGroup: Awaited<ReturnType<typeof provisionedGroup>>;

  beforeAll(async () => {
    group = await provisionedGroup('scim-auth');
    otherGroup = await provisionedGroup('scim-auth-other');
  });

  it('refuses a missing, malformed or wrong token with 401', async () => {
    const base = `/api/scim/v2/groups/${group.path}/Users`;
    const none = await api.get(base).set(anonymous);
    expectScimError(none, 401, 'Unauthorized');
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expectScimError(await api.get(base).set(anonymous).set('Authorization', `Basic ${group.token}`), 401, 'Unauthorized');
    expectScimError(await scim({ ...group, token: 'glsoat-not-the-token' }).list(), 401, 'Unauthorized');
    expectScimError(await scim({ ...group, token: `${group.token}x` }).get('anyone'), 401, 'Unauthorized');
  });

  it("never accepts one group's token on another group's path", async () => {
    const crossed = { path: otherGroup.path, token: group.token };
    expectScimError(await scim(crossed).list(), 401, 'Unauthorized');
    expectScimError(
      await scim(crossed).create(scimUser({ externalId: 'cross-1', userName: 'cross', email: 'cross@example.com' })),
      401,
      'Unauthorized',
    );
    expect(await query('select 1 from scim_identities where extern_uid = $1', ['cross-1'])).toHaveLength(0);
  });

  it('names why a group refuses SCIM: unknown, without single sign-on, or with it disabled', async () => {
    expectScimError(await scim({ path: 'no-such-group', token: group.token }).list(), 404, 'Group no-such-group not found');
    const plainGroupId = await createGroup('scim-no-saml');
    const token = await issueScimToken(plainGroupId);
    expectScimError(await scim({ path: 'scim-no-saml', token }).list(), 404, 'Group scim-no-saml does not have SAML SSO configured');
    await configureSaml(plainGroupId, { enabled: false });
    expectScimError(await scim({ path: 'scim-no-saml', token }).list(), 404, 'Group scim-no-saml does not have SAML SSO configured');
    await configureSaml(plainGroupId, { enabled: true });
    expect((await scim({ path: 'scim-no-saml', token }).list()).status).toBe(200);
  });

  it('answers SCIM endpoints it does not offer in the SCIM error schema', async () => {
    const response = await api.get(`/api/scim/v2/groups/${group.path}/Groups`).set(anonymous).set('Authorization', `Bearer ${group.token}`);
    expectScimError(response, 404, /is not a SCIM endpoint/);
  });
});

describe('the provisioning life cycle, as an identity provider drives it', () => {
  let group: Awaited<ReturnType<typeof provisionedGroup>>;
  let userId: number;

  beforeAll(async () => {
    group = await provisionedGroup('lifecycle');
  });

  it('creates the user with its group_saml identity and a Guest membership', async () => {
    const response = await scim(group).create(
      scimUser({ externalId: 'okta-00u1', userName: 'jane.doe@corp.example', email: 'jane.doe@corp.example' }),
    );
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(response.headers.location).toMatch(/\/api\/scim\/v2\/groups\/lifecycle\/Users\/okta-00u1$/);
    expect(response.body).toEqual({
      schemas: [SCIM_USER_SCHEMA],
      id: 'okta-00u1',
      externalId: 'okta-00u1',
      active: true,
      userName: 'jane.doe',
      'name.formatted': 'Jane Doe',
      name: { formatted: 'Jane Doe', givenName: 'Jane', familyName: 'Doe' },
      emails: [{ type: 'work', value: 'jane.doe@corp.example', primary: true }],
      meta: { resourceType: 'User' },
    });

    const [user] = await query<{ id: number; confirmed_at: Date | null; password_hash: string | null }>(
      'select id, confirmed_at, password_hash from users where username = $1',
      ['jane.doe'],
    );
    userId = user!.id;
    expect(user?.confirmed_at).not.toBeNull();
    expect(user?.password_hash).toMatch(/^\$argon2/);
    const adminView = await api.get(`/api/v4/users/${userId}`).set(callerHeader(adminCaller()));
    expect(adminView.body.identities).toEqual([
      { provider: 'group_saml', extern_uid: 'okta-00u1', saml_provider_id: group.samlProviderId },
    ]);
    expect(await membershipOf(group.id, userId)).toBe(10);
  });

  it('finds the user by id, externalId and userName filters, and by id', async () => {
    for (const filter of [
      'id eq "okta-00u1"',
      'externalId eq "OKTA-00U1"',
      'userName eq "jane.doe@corp.example"',
      'userName eq "jane.doe"',
    ]) {
      const response = await scim(group).list({ filter });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(response.body).toMatchObject({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
        totalResults: 1,
        itemsPerPage: 20,
        startIndex: 1,
        Resources: [expect.objectContaining({ id: 'okta-00u1', userName: 'jane.doe' })],
      });
    }
    const none = await scim(group).list({ filter: 'externalId eq "someone-else"' });
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
    const single = await scim(group).get('okta-00u1');
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ id: 'okta-00u1', active: true, userName: 'jane.doe' });
  });

  it('renames the user', async () => {
    const renamed = await scim(group).patch('okta-00u1', [{ op: 'Replace', path: 'name.formatted', value: 'Jane Roe' }]);
    expect(renamed.status).toBe(204);
    expect(renamed.text).toBe('');
    expect((await scim(group).get('okta-00u1')).body).toMatchObject({
      'name.formatted': 'Jane Roe',
      name: { formatted: 'Jane Roe', givenName: 'Jane', familyName: 'Roe' },
    });
  });

  it("changes the work email and the userName, which is the user's username", async () => {
    const changed = await scim(group).patch('okta-00u1', [
      { op: 'replace', path: 'emails[type eq "work"].value', value: 'jane.roe@corp.example' },
      { op: 'Replace', path: 'userName', value: 'jane.roe@corp.example' },
    ]);
    expect(changed.status).toBe(204);
    const read = await scim(group).get('okta-00u1');
    expect(read.body).toMatchObject({ userName: 'jane.roe', emails: [{ type: 'work', value: 'jane.roe@corp.example', primary: true }] });
    const user = await api.get(`/api/v4/users/${userId}`).set(callerHeader(adminCaller()));
    expect(user.body).toMatchObject({ username: 'jane.roe', email: 'jane.roe@corp.example', name: 'Jane Roe' });
  });

  it('deactivates the user: the identity and the membership go, the user stays known to SCIM', async () => {
    const deactivated = await scim(group).patch('okta-00u1', [{ op: 'replace', value: { active: 'False' } }]);
    expect(deactivated.status).toBe(204);
    expect((await scim(group).get('okta-00u1')).body).toMatchObject({ id: 'okta-00u1', active: false });
    expect(await samlIdentitiesOf(userId)).toEqual([]);
    expect(await membershipOf(group.id, userId)).toBeUndefined();
    const listed = await scim(group).list({ filter: 'userName eq "jane.roe"' });
    expect(listed.body.Resources).toEqual([expect.objectContaining({ active: false })]);
  });

  it('reactivates the user: the identity and the membership come back', async () => {
    const reactivated = await scim(group).patch('okta-00u1', [{ op: 'Replace', path: 'active', value: true }]);
    expect(reactivated.status).toBe(204);
    expect((await scim(group).get('okta-00u1')).body.active).toBe(true);
    expect(await samlIdentitiesOf(userId)).toEqual([{ extern_uid: 'okta-00u1', saml_provider_id: group.samlProviderId }]);
    expect(await membershipOf(group.id, userId)).toBe(10);
  });

  it('changes the externalId, which the identity follows', async () => {
    const changed = await scim(group).patch('okta-00u1', [{ op: 'Replace', path: 'externalId', value: 'okta-00u1-new' }]);
    expect(changed.status).toBe(204);
    expectScimError(await scim(group).get('okta-00u1'), 404, 'Resource okta-00u1 not found');
    expect((await scim(group).get('okta-00u1-new')).body.id).toBe('okta-00u1-new');
    expect(await samlIdentitiesOf(userId)).toEqual([{ extern_uid: 'okta-00u1-new', saml_provider_id: group.samlProviderId }]);
  });

  it('deletes the user: identity and membership go, the account stays', async () => {
    const deleted = await scim(group).delete('okta-00u1-new');
    expect(deleted.status).toBe(204);
    expectScimError(await scim(group).get('okta-00u1-new'), 404, 'Resource okta-00u1-new not found');
    expect(await samlIdentitiesOf(userId)).toEqual([]);
    expect(await membershipOf(group.id, userId)).toBeUndefined();
    expect((await api.get(`/api/v4/users/${userId}`).set(callerHeader(adminCaller()))).status).toBe(200);
    expectScimError(await scim(group).delete('okta-00u1-new'), 404, 'Resource okta-00u1-new not found');
  });

  it('recorded each provisioning and deprovisioning as an event of the group', async () => {
    const events = await eventsOfGroup(group.id, 'identity.scim_user.');
    expect(events.map((event) => [event.type, event.data.externUid, event.data.userCreated ?? event.data.reason, event.actor])).toEqual([
      ['identity.scim_user.provisioned', 'okta-00u1', true, null],
      ['identity.scim_user.deprovisioned', 'okta-00u1', 'DEPROVISIONING_REASON_DEACTIVATED', null],
      ['identity.scim_user.provisioned', 'okta-00u1', undefined, null],
      ['identity.scim_user.deprovisioned', 'okta-00u1-new', 'DEPROVISIONING_REASON_DELETED', null],
    ]);
    expect(events[2]?.data).toMatchObject({ reactivated: true, user: { id: userId, username: 'jane.roe' } });
  });
});

describe('SCIM lists', () => {
  it('pages with startIndex and count, treating a start below 1 as 1', async () => {
    const group = await provisionedGroup('scim-paging');
    for (const n of [1, 2, 3]) {
      const created = await scim(group).create(
        scimUser({ externalId: `page-${n}`, userName: `pager${n}`, email: `pager${n}@example.com` }),
      );
      expect(created.status).toBe(201);
    }
    const all = await scim(group).list();
    expect(all.body).toMatchObject({ totalResults: 3, itemsPerPage: 20, startIndex: 1 });
    expect(all.body.Resources.map((user: { id: string }) => user.id)).toEqual(['page-1', 'page-2', 'page-3']);
    const second = await scim(group).list({ startIndex: 2, count: 1 });
    expect(second.body).toMatchObject({
      totalResults: 3,
      itemsPerPage: 1,
      startIndex: 2,
      Resources: [expect.objectContaining({ id: 'page-2' })],
    });
    const belowOne = await scim(group).list({ startIndex: 0, count: 2 });
    expect(belowOne.body.startIndex).toBe(1);
    expect(belowOne.body.Resources.map((user: { id: string }) => user.id)).toEqual(['page-1', 'page-2']);
    const beyond = await scim(group).list({ startIndex: 10 });
    expect(beyond.body).toMatchObject({ totalResults: 3, startIndex: 10, Resources: [] });
  });
});

describe('SCIM error cases', () => {
  let group: Awaited<ReturnType<typeof provisionedGroup>>;

  beforeAll(async () => {
    group = await provisionedGroup('scim-errors');
  });

  it('answers 400 invalidValue for missing or malformed attributes, writing nothing', async () => {
    const valid = scimUser({ externalId: 'bad-1', userName: 'bad', email: 'bad@example.com' });
    for (const [attribute, detail] of [
      ['externalId', 'externalId is missing'],
      ['userName', 'userName is missing'],
      ['emails', 'emails is missing'],
      ['name', 'name is missing'],
    ] as const) {
      const { [attribute]: _left, ...body } = valid;
      expectScimError(await scim(group).create(body), 400, detail, 'invalidValue');
    }
    expectScimError(await scim(group).create({ ...valid, emails: [] }), 400, 'emails is invalid', 'invalidValue');
    expectScimError(
      await scim(group).create({ ...valid, name: {} }),
      400,
      'name must have formatted, or givenName and familyName',
      'invalidValue',
    );
    expectScimError(
      await scim(group).create({ ...valid, emails: [{ type: 'work', value: 'not-an-address' }] }),
      400,
      'email is invalid',
      'invalidValue',
    );
    expectScimError(
      await scim(group).create({ ...valid, userName: '@corp.example' }),
      400,
      /has no characters a username can hold/,
      'invalidValue',
    );
    expect(await query('select 1 from users where username = $1', ['bad'])).toHaveLength(0);
    expect(await query('select 1 from scim_identities where group_id = $1', [group.id])).toHaveLength(0);
  });

  it('answers 409 uniqueness for a duplicate externalId or userName, writing nothing', async () => {
    const first = await scim(group).create(scimUser({ externalId: 'dup-1', userName: 'dupuser', email: 'dup@example.com' }));
    expect(first.status).toBe(201);
    const outboxBefore = await query('select id from outbox order by id');
    expectScimError(
      await scim(group).create(scimUser({ externalId: 'DUP-1', userName: 'other', email: 'other@example.com' })),
      409,
      'User with externalId DUP-1 has already been provisioned',
      'uniqueness',
    );
    expectScimError(
      await scim(group).create(scimUser({ externalId: 'dup-2', userName: 'dupuser', email: 'someone-else@example.com' })),
      409,
      'Username has already been taken',
      'uniqueness',
    );
    expect(await query('select id from outbox order by id')).toEqual(outboxBefore);
    expect(await query('select 1 from users where email = $1', ['someone-else@example.com'])).toHaveLength(0);
  });

  it('links an existing user by email instead of creating one, once per group', async () => {
    const existing = await createUser('existing-person', 'existing.person@corp.example');
    const linked = await scim(group).create(
      scimUser({ externalId: 'link-1', userName: 'whatever', email: 'Existing.Person@corp.example' }),
    );
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({ id: 'link-1', userName: 'existing-person' });
    await confirmLink(existing, group.id);
    expect(await membershipOf(group.id, existing.id)).toBe(10);
    expect(await query('select 1 from users where username = $1', ['whatever'])).toHaveLength(0);
    const [event] = (await eventsOfGroup(group.id, 'identity.scim_user.provisioned')).filter(
      (candidate) => candidate.data.externUid === 'link-1',
    );
    expect(event?.data.userCreated).toBeUndefined();
    expectScimError(
      await scim(group).create(scimUser({ externalId: 'link-2', userName: 'whatever', email: 'existing.person@corp.example' })),
      409,
      /already been provisioned under another externalId/,
      'uniqueness',
    );
  });

  it('answers 409 when a change takes a username, an email or an externalId that is taken', async () => {
    await createUser('taken-name', 'taken@example.com');
    const created = await scim(group).create(scimUser({ externalId: 'chg-1', userName: 'changer', email: 'changer@example.com' }));
    expect(created.status).toBe(201);
    await scim(group).create(scimUser({ externalId: 'chg-2', userName: 'changer2', email: 'changer2@example.com' }));
    expectScimError(
      await scim(group).patch('chg-1', [{ op: 'Replace', path: 'userName', value: 'taken-name' }]),
      409,
      'Username has already been taken',
      'uniqueness',
    );
    expectScimError(
      await scim(group).patch('chg-1', [{ op: 'Replace', path: 'emails[type eq "work"].value', value: 'taken@example.com' }]),
      409,
      'Email has already been taken',
      'uniqueness',
    );
    expectScimError(
      await scim(group).patch('chg-1', [{ op: 'Replace', path: 'externalId', value: 'CHG-2' }]),
      409,
      'externalId has already been taken',
      'uniqueness',
    );
    expect((await scim(group).get('chg-1')).body).toMatchObject({
      userName: 'changer',
      emails: [expect.objectContaining({ value: 'changer@example.com' })],
    });
  });

  it('answers 400 invalidSyntax for a body that is not JSON', async () => {
    const response = await api
      .post(`/api/scim/v2/groups/${encodeURIComponent(group.path)}/Users`)
      .set(anonymous)
      .set('Authorization', `Bearer ${group.token}`)
      .set('Content-Type', 'application/scim+json')
      .send('{"externalId": ');
    expectScimError(response, 400, 'The request body is not valid JSON', 'invalidSyntax');
  });

  it('answers 400 invalidFilter for unsupported or malformed filters', async () => {
    expectScimError(await scim(group).list({ filter: 'userName co "dup"' }), 400, /operator "co"/, 'invalidFilter');
    expectScimError(await scim(group).list({ filter: 'userName eq "a" or userName eq "b"' }), 400, /operator "or"/, 'invalidFilter');
    expectScimError(await scim(group).list({ filter: 'title eq "Boss"' }), 400, /attribute "title"/, 'invalidFilter');
    expectScimError(await scim(group).list({ filter: 'userName eq "unterminated' }), 400, /not a valid SCIM filter/, 'invalidFilter');
    expectScimError(await scim(group).list({ startIndex: 'first' }), 400, 'startIndex is invalid', 'invalidValue');
  });

  it('answers 404 for an unknown user and 400 for a malformed PATCH', async () => {
    expectScimError(await scim(group).get('nobody'), 404, 'Resource nobody not found');
    expectScimError(await scim(group).patch('nobody', [{ op: 'Replace', path: 'active', value: false }]), 404, 'Resource nobody not found');
    expectScimError(await scim(group).delete('nobody'), 404, 'Resource nobody not found');
    expectScimError(await scim(group).patch('dup-1', []), 400, /Operations/, 'invalidValue');
    const withoutBody = await api
      .patch(`/api/scim/v2/groups/${group.path}/Users/dup-1`)
      .set(anonymous)
      .set('Authorization', `Bearer ${group.token}`);
    expectScimError(withoutBody, 400, 'Operations is missing', 'invalidValue');
    expectScimError(
      await scim(group).patch('dup-1', [{ op: 'Move', path: 'active', value: false }]),
      400,
      'Operations[0][op] does not have a valid value',
      'invalidValue',
    );
    expectScimError(
      await scim(group).patch('dup-1', [{ op: 'Replace', path: 'active', value: 'perhaps' }]),
      400,
      'active must be a boolean',
      'invalidValue',
    );
    const untouched = await scim(group).get('dup-1');
    expect(untouched.body.active).toBe(true);
  });

  it('refuses to deprovision the last owner of the group', async () => {
    const ownedGroup = await provisionedGroup('scim-last-owner');
    const linked = await scim(ownedGroup).create(
      scimUser({ externalId: 'owner-1', userName: 'group-owner', email: 'group-owner@example.com' }),
    );
    expect(linked.status).toBe(201);
    await confirmLink({ id: owner.id, username: 'group-owner' }, ownedGroup.id);
    expect(await membershipOf(ownedGroup.id, owner.id)).toBe(50);
    expectScimError(
      await scim(ownedGroup).delete('owner-1'),
      409,
      'Cannot deprovision the last owner of group scim-last-owner',
      'uniqueness',
    );
    expectScimError(
      await scim(ownedGroup).patch('owner-1', [{ op: 'Replace', path: 'active', value: false }]),
      409,
      'Cannot deprovision the last owner of group scim-last-owner',
      'uniqueness',
    );
    expect((await scim(ownedGroup).get('owner-1')).body.active).toBe(true);
    expect(await samlIdentitiesOf(owner.id)).toHaveLength(1);
  });

  it('provisions the same externalId in two groups, each with its own identity', async () => {
    const first = await provisionedGroup('scim-shared-a');
    const second = await provisionedGroup('scim-shared-b');
    const body = scimUser({ externalId: 'shared-uid', userName: 'shared.person', email: 'shared.person@example.com' });
    expect((await scim(first).create(body)).status).toBe(201);
    expect((await scim(second).create(body)).status).toBe(201);
    const [user] = await query<{ id: number }>('select id from users where username = $1', ['shared.person']);
    // The second group's provider found an account the first one made: its owner links it.
    await confirmLink({ id: user!.id, username: 'shared.person' }, second.id);
    expect(await samlIdentitiesOf(user!.id)).toEqual([
      { extern_uid: 'shared-uid', saml_provider_id: first.samlProviderId },
      { extern_uid: 'shared-uid', saml_provider_id: second.samlProviderId },
    ]);
  });
});

describe('existing accounts and SCIM', () => {
  let attacker: { id: number; username: string };
  let attackerHeaders: Record<string, string>;
  let group: Awaited<ReturnType<typeof provisionedGroup>>;

  beforeAll(async () => {
    // An ordinary user sets up a group of their own with single sign-on and SCIM.
    attacker = await createUser('scim-attacker');
    attackerHeaders = callerHeader(userCaller(attacker.id, attacker.username));
    const created = await api.post('/api/v4/groups').set(attackerHeaders).send({ name: 'takeover', path: 'takeover' });
    expect(created.status).toBe(201);
    const saml = await api
      .put(`/api/v4/groups/${created.body.id}/saml`)
      .set(attackerHeaders)
      .send({ enabled: true, sso_url: 'https://idp.example.com/sso/saml', certificate_fingerprint: FINGERPRINT });
    expect(saml.status).toBe(200);
    const token = await api.post(`/api/v4/groups/${created.body.id}/scim/token`).set(attackerHeaders);
    expect(token.status).toBe(201);
    group = { id: created.body.id, path: 'takeover', samlProviderId: saml.body.id, token: token.body.token };
  });

  async function profileOf(userId: number) {
    const [row] = await query<{ email: string; name: string; username: string }>('select email, name, username from users where id = $1', [
      userId,
    ]);
    return row;
  }

  it("never changes or links a victim's account found by email; the link waits for its owner", async () => {
    const victim = await createUser('scim-victim', 'victim@corp.example');
    const before = await profileOf(victim.id);
    const provisioned = await scim(group).create(scimUser({ externalId: 'victim-1', userName: 'victim', email: 'victim@corp.example' }));
    expect(provisioned.status).toBe(201);
    expect(await samlIdentitiesOf(victim.id)).toEqual([]);
    expect(await membershipOf(group.id, victim.id)).toBeUndefined();

    const patched = await scim(group).patch('victim-1', [
      { op: 'Replace', path: 'emails[type eq "work"].value', value: 'attacker-inbox@evil.example' },
      { op: 'Replace', path: 'name.formatted', value: 'Owned' },
      { op: 'Replace', path: 'userName', value: 'owned-victim' },
    ]);
    expect(patched.status).toBe(204);
    expect(await profileOf(victim.id)).toEqual(before);
    expect(await samlIdentitiesOf(victim.id)).toEqual([]);

    const reactivated = await scim(group).patch('victim-1', [{ op: 'Replace', path: 'active', value: true }]);
    expect(reactivated.status).toBe(204);
    expect(await samlIdentitiesOf(victim.id)).toEqual([]);
    expect(await membershipOf(group.id, victim.id)).toBeUndefined();
  });

  it('shows the pending link to its owner alone, who may decline it', async () => {
    const victim = await createUser('scim-decliner', 'decliner@corp.example');
    expect((await scim(group).create(scimUser({ externalId: 'decline-1', userName: 'x', email: 'decliner@corp.example' }))).status).toBe(
      201,
    );
    const asVictim = callerHeader(userCaller(victim.id, victim.username));
    const pending = await api.get('/api/v4/user/scim_links').set(asVictim);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual([{ group_id: group.id, group_path: 'takeover', extern_uid: 'decline-1', created_at: expect.any(String) }]);
    expect((await api.get('/api/v4/user/scim_links').set(attackerHeaders)).body).toEqual([]);
    // Nobody else can confirm it: not the group's owner, not an administrator acting as the victim.
    expect((await api.post(`/api/v4/user/scim_links/${group.id}/confirm`).set(attackerHeaders)).status).toBe(404);
    const impersonated = callerHeader({
      kind: 'user',
      userId: victim.id,
      username: victim.username,
      name: victim.username,
      isAdmin: false,
      scopes: ['api'],
      impersonatorId: 1,
    });
    expect((await api.post(`/api/v4/user/scim_links/${group.id}/confirm`).set(impersonated)).status).toBe(403);
    expect((await api.post(`/api/v4/user/scim_links/${group.id}/confirm`).set(callerHeader({ kind: 'anonymous' }))).status).toBe(401);

    expect((await api.delete(`/api/v4/user/scim_links/${group.id}`).set(asVictim)).status).toBe(204);
    expect((await api.get('/api/v4/user/scim_links').set(asVictim)).body).toEqual([]);
    expectScimError(await scim(group).get('decline-1'), 404, 'Resource decline-1 not found');
    expect(await membershipOf(group.id, victim.id)).toBeUndefined();
  });

  it('links the account once its owner confirms, and still never changes their profile', async () => {
    const member = await createUser('scim-consenting', 'consenting@corp.example');
    expect((await scim(group).create(scimUser({ externalId: 'consent-1', userName: 'x', email: 'consenting@corp.example' }))).status).toBe(
      201,
    );
    const before = await profileOf(member.id);
    await confirmLink(member, group.id);
    expect(await samlIdentitiesOf(member.id)).toEqual([{ extern_uid: 'consent-1', saml_provider_id: group.samlProviderId }]);
    expect(await membershipOf(group.id, member.id)).toBe(10);
    expect((await scim(group).patch('consent-1', [{ op: 'Replace', path: 'name.formatted', value: 'Renamed' }])).status).toBe(204);
    expect(await profileOf(member.id)).toEqual(before);
    expect(
      (await api.post(`/api/v4/user/scim_links/${group.id}/confirm`).set(callerHeader(userCaller(member.id, member.username)))).status,
    ).toBe(404);
  });

  it('never links an administrator', async () => {
    const administrator = await createUser('scim-admin', 'admin@corp.example');
    await query('update users set is_admin = true where id = $1', [administrator.id]);
    expectScimError(
      await scim(group).create(scimUser({ externalId: 'admin-1', userName: 'x', email: 'admin@corp.example' })),
      409,
      'User with email admin@corp.example cannot be linked to this identity provider',
      'uniqueness',
    );
    expect(await samlIdentitiesOf(administrator.id)).toEqual([]);
    expect(await query('select 1 from scim_identities where user_id = $1', [administrator.id])).toHaveLength(0);
  });

  it("changes only users this group's provider created, not those another group's provider created", async () => {
    const other = await provisionedGroup('scim-other-idp');
    expect(
      (await scim(other).create(scimUser({ externalId: 'theirs', userName: 'their.user', email: 'their.user@example.com' }))).status,
    ).toBe(201);
    const [theirs] = await query<{ id: number }>('select id from users where username = $1', ['their.user']);
    const before = await profileOf(theirs!.id);
    expect((await scim(group).create(scimUser({ externalId: 'grab', userName: 'x', email: 'their.user@example.com' }))).status).toBe(201);
    await scim(group).patch('grab', [{ op: 'Replace', path: 'emails[type eq "work"].value', value: 'grabbed@evil.example' }]);
    expect(await profileOf(theirs!.id)).toEqual(before);
    const own = await scim(group).create(scimUser({ externalId: 'own-1', userName: 'own.user', email: 'own.user@example.com' }));
    expect(own.status).toBe(201);
    expect((await scim(group).patch('own-1', [{ op: 'Replace', path: 'name.formatted', value: 'Own Renamed' }])).status).toBe(204);
    expect((await scim(group).get('own-1')).body.name.formatted).toBe('Own Renamed');
  });
});
