/** The Users area against real PostgreSQL: list filters, views, create/update/delete, blocking, identities, sudo. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AUTHENTICATION_CHANGED_HEADER } from '@platform/auth';
import { callUnary } from '@platform/grpc';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@platform/errors';
import { UserBlocked, UserDeleted, UserUpdated } from '@platform/proto/identity/v1/events';
import { adminCaller, callerHeader, gitlabSchemaErrors, userCaller } from '@platform/testing';
import { startIdentityHarness, TEST_ROOT_TOKEN, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
const admin = callerHeader(adminCaller());
const anonymous = callerHeader({ kind: 'anonymous' });

beforeAll(async () => {
  harness = await startIdentityHarness('users');
});

afterAll(async () => {
  await harness?.stop();
});

/** Usernames in a list body, for terse assertions. */
function usernames(body: Array<{ username: string }>): string[] {
  return body.map((user) => user.username);
}

async function tokenFor(userId: number, scopes = ['api']): Promise<string> {
  const issued = await harness.api.post(`/api/v4/users/${userId}/personal_access_tokens`).set(admin).send({ name: 'test', scopes });
  return issued.body.token as string;
}

describe('GET /users', () => {
  let alpha: { id: number };
  let beta: { id: number };
  let gamma: { id: number };

  beforeAll(async () => {
    alpha = await harness.createUser('list-alpha', { name: 'Alpha Centauri', external: true, public_email: 'list-alpha@example.com' });
    beta = await harness.createUser('list-beta', { name: 'Beta Pictoris', extern_uid: 'uid-BETA', provider: 'ldapmain' });
    gamma = await harness.createUser('list-gamma', { name: 'Gamma Draconis' });
    await harness.api.post(`/api/v4/users/${gamma.id}/block`).set(admin);
  });

  it('lists users newest first with the administrator view and pagination headers', async () => {
    const response = await harness.api.get('/api/v4/users?per_page=2').set(admin);
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
    expect(response.body[0].id).toBeGreaterThan(response.body[1].id);
    expect(response.headers['x-per-page']).toBe('2');
    expect(response.headers['x-page']).toBe('1');
    expect(Number(response.headers['x-total'])).toBeGreaterThanOrEqual(4);
    expect(response.headers.link).toContain('rel="next"');
    expect(gitlabSchemaErrors('user/admins.json', response.body, { optional: ['pronouns'] })).toEqual([]);
    expect(response.body[0]).toHaveProperty('email');
    expect(response.body[0]).toHaveProperty('last_sign_in_ip');
    expect(response.body[0]).not.toHaveProperty('sign_in_count');
  });

  it('shows other users the public list view', async () => {
    const response = await harness.api.get('/api/v4/users').set(callerHeader(userCaller(alpha.id, 'list-alpha')));
    expect(response.status).toBe(200);
    expect(gitlabSchemaErrors('user/basics.json', response.body)).toEqual([]);
    for (const user of response.body) {
      expect(Object.keys(user).sort()).toEqual(['avatar_url', 'id', 'name', 'state', 'username', 'web_url']);
    }
  });

  it('shows anonymous callers active users only', async () => {
    const response = await harness.api.get('/api/v4/users?username=list-alpha').set(anonymous);
    expect(response.status).toBe(200);
    expect(usernames(response.body)).toContain('list-alpha');
    expect(usernames((await harness.api.get('/api/v4/users?username=list-gamma').set(anonymous)).body)).not.toContain('list-gamma');
    expect(response.body.every((user: { state: string }) => user.state === 'active')).toBe(true);
    const blocked = await harness.api.get('/api/v4/users?username=list-gamma&blocked=true').set(anonymous);
    expect(blocked.body).toEqual([]);
  });

  it('refuses anonymous callers the list unless they look up a username', async () => {
    for (const query of ['', '?per_page=100', '?search=list', '?blocked=true', '?username=']) {
      const response = await harness.api.get(`/api/v4/users${query}`).set(anonymous);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
    }
  });

  it('ignores administrator-only filters for everybody else', async () => {
    const asUser = callerHeader(userCaller(alpha.id, 'list-alpha'));
    const everyone = usernames((await harness.api.get('/api/v4/users?per_page=100').set(asUser)).body).sort();
    for (const filter of [
      'external=true',
      'without_projects=true',
      'created_after=2999-01-01T00:00:00Z',
      'created_before=2000-01-01T00:00:00Z',
    ]) {
      const filtered = await harness.api.get(`/api/v4/users?per_page=100&${filter}`).set(asUser);
      expect(filtered.status).toBe(200);
      expect(usernames(filtered.body).sort()).toEqual(everyone);
    }
    expect((await harness.api.get('/api/v4/users?created_after=2999-01-01T00:00:00Z').set(admin)).body).toEqual([]);
  });

  it('searches names and usernames, and the primary email for administrators only', async () => {
    const byName = await harness.api.get('/api/v4/users?search=centauri').set(admin);
    expect(usernames(byName.body)).toEqual(['list-alpha']);
    const byUsername = await harness.api.get('/api/v4/users?search=@list-be').set(admin);
    expect(usernames(byUsername.body)).toEqual(['list-beta']);
    const byEmail = await harness.api.get('/api/v4/users?search=LIST-BETA@example.com').set(admin);
    expect(usernames(byEmail.body)).toEqual(['list-beta']);
    const asUser = callerHeader(userCaller(alpha.id, 'list-alpha'));
    expect((await harness.api.get('/api/v4/users?search=list-beta@example.com').set(asUser)).body).toEqual([]);
    // A public email is searchable by anybody.
    expect(usernames((await harness.api.get('/api/v4/users?search=list-alpha@example.com').set(asUser)).body)).toEqual(['list-alpha']);
  });

  it('finds a username regardless of case', async () => {
    const response = await harness.api.get('/api/v4/users?username=LIST-Alpha').set(anonymous);
    expect(usernames(response.body)).toEqual(['list-alpha']);
  });

  it('filters on state, and ignores false values', async () => {
    expect(usernames((await harness.api.get('/api/v4/users?blocked=true').set(admin)).body)).toEqual(['list-gamma']);
    const active = await harness.api.get('/api/v4/users?active=true&per_page=100').set(admin);
    expect(usernames(active.body)).not.toContain('list-gamma');
    expect(usernames(active.body)).toContain('list-beta');
    const notBlocked = await harness.api.get('/api/v4/users?blocked=false&per_page=100').set(admin);
    expect(usernames(notBlocked.body)).toContain('list-gamma');
    expect((await harness.api.get('/api/v4/users?active=true&blocked=true').set(admin)).body).toEqual([]);
  });

  it('filters external users', async () => {
    expect(usernames((await harness.api.get('/api/v4/users?external=true').set(admin)).body)).toEqual(['list-alpha']);
  });

  it('finds a user by external identity, for administrators only', async () => {
    const found = await harness.api.get('/api/v4/users?extern_uid=uid-beta&provider=ldapmain').set(admin);
    expect(usernames(found.body)).toEqual(['list-beta']);
    expect(found.body[0].identities).toEqual([{ provider: 'ldapmain', extern_uid: 'uid-BETA' }]);
    expect((await harness.api.get('/api/v4/users?extern_uid=uid-beta&provider=other').set(admin)).body).toEqual([]);
    const alone = await harness.api.get('/api/v4/users?extern_uid=uid-beta').set(admin);
    expect(alone.status).toBe(400);
    expect(alone.body).toEqual({ error: 'extern_uid, provider provide all or none of parameters' });
    const asUser = await harness.api
      .get('/api/v4/users?extern_uid=uid-beta&provider=ldapmain')
      .set(callerHeader(userCaller(alpha.id, 'list-alpha')));
    expect(asUser.status).toBe(403);
    expect((await harness.api.get('/api/v4/users?extern_uid=uid-beta&provider=ldapmain').set(anonymous)).status).toBe(401);
  });

  it('excludes internal users on request', async () => {
    await harness.sql(
      "insert into users (username, email, name, user_type) values ('support-bot', 'support-bot@example.com', 'Support Bot', 'support_bot')",
    );
    const all = await harness.api.get('/api/v4/users?per_page=100').set(admin);
    expect(usernames(all.body)).toContain('support-bot');
    const humans = await harness.api.get('/api/v4/users?exclude_internal=true&per_page=100').set(admin);
    expect(usernames(humans.body)).not.toContain('support-bot');
    expect(usernames(humans.body)).toContain('list-alpha');
  });

  it('filters on creation time', async () => {
    await harness.sql("update users set created_at = '2020-01-01T00:00:00Z' where id = $1", [beta.id]);
    const before = await harness.api.get('/api/v4/users?created_before=2021-01-01').set(admin);
    expect(usernames(before.body)).toEqual(['list-beta']);
    const after = await harness.api.get('/api/v4/users?created_after=2021-01-01T00:00:00Z&per_page=100').set(admin);
    expect(usernames(after.body)).not.toContain('list-beta');
    expect(usernames(after.body)).toContain('list-alpha');
    expect((await harness.api.get('/api/v4/users?created_before=yesterday-ish').set(admin)).status).toBe(400);
  });

  it('lists users without project memberships', async () => {
    await harness.sql("insert into members (source_type, source_id, user_id, access_level) values ('Project', 4242, $1, 30)", [alpha.id]);
    // A pending access request is not a membership.
    await harness.sql(
      "insert into members (source_type, source_id, user_id, access_level, requested_at) values ('Project', 4243, $1, 30, now())",
      [beta.id],
    );
    const response = await harness.api.get('/api/v4/users?without_projects=true&per_page=100').set(admin);
    expect(usernames(response.body)).not.toContain('list-alpha');
    expect(usernames(response.body)).toContain('list-beta');
  });

  it('filters on and shows custom attributes, for administrators only', async () => {
    await harness.api.put(`/api/v4/users/${beta.id}/custom_attributes/team`).set(admin).send({ value: 'platform' });
    await harness.api.put(`/api/v4/users/${beta.id}/custom_attributes/site`).set(admin).send({ value: 'berlin' });
    await harness.api.put(`/api/v4/users/${alpha.id}/custom_attributes/team`).set(admin).send({ value: 'platform' });
    const both = await harness.api.get('/api/v4/users?custom_attributes[team]=platform&custom_attributes[site]=berlin').set(admin);
    expect(usernames(both.body)).toEqual(['list-beta']);
    expect(both.body[0]).not.toHaveProperty('custom_attributes');
    const shown = await harness.api.get('/api/v4/users?custom_attributes[team]=platform&with_custom_attributes=true').set(admin);
    expect(usernames(shown.body)).toEqual(['list-beta', 'list-alpha']);
    expect(shown.body[0].custom_attributes).toEqual([
      { key: 'site', value: 'berlin' },
      { key: 'team', value: 'platform' },
    ]);
    // Others' custom attribute filters and requests are ignored.
    const asUser = await harness.api
      .get('/api/v4/users?custom_attributes[team]=nobody&with_custom_attributes=true&per_page=100')
      .set(callerHeader(userCaller(alpha.id, 'list-alpha')));
    expect(usernames(asUser.body)).toContain('list-gamma');
    expect(asUser.body[0]).not.toHaveProperty('custom_attributes');
    expect((await harness.api.get('/api/v4/users?custom_attributes=flat').set(admin)).status).toBe(400);
    expect((await harness.api.get('/api/v4/users?custom_attributes[a][b]=nested').set(admin)).status).toBe(400);
  });

  it('orders and sorts for administrators, by id descending otherwise', async () => {
    const byName = await harness.api.get('/api/v4/users?search=list-&order_by=name&sort=asc').set(admin);
    expect(usernames(byName.body)).toEqual(['list-alpha', 'list-beta', 'list-gamma']);
    const byUsernameDesc = await harness.api.get('/api/v4/users?search=list-&order_by=username').set(admin);
    expect(usernames(byUsernameDesc.body)).toEqual(['list-gamma', 'list-beta', 'list-alpha']);
    const byCreation = await harness.api.get('/api/v4/users?search=list-&order_by=created_at&sort=asc').set(admin);
    expect(usernames(byCreation.body)[0]).toBe('list-beta');
    const asUser = await harness.api
      .get('/api/v4/users?search=list-&order_by=name&sort=asc')
      .set(callerHeader(userCaller(alpha.id, 'list-alpha')));
    expect(usernames(asUser.body)).toEqual(['list-gamma', 'list-beta', 'list-alpha']);
  });

  it('filters on two-factor authentication for administrators', async () => {
    await harness.sql('update users set two_factor_enabled = true where id = $1', [alpha.id]);
    const enabled = await harness.api.get('/api/v4/users?two_factor=enabled').set(admin);
    expect(usernames(enabled.body)).toEqual(['list-alpha']);
    const disabled = await harness.api.get('/api/v4/users?two_factor=disabled&per_page=100').set(admin);
    expect(usernames(disabled.body)).not.toContain('list-alpha');
  });

  it('refuses unknown enum values and malformed parameters with 400', async () => {
    const cases: Array<[string, string]> = [
      ['order_by=email', 'order_by does not have a valid value'],
      ['sort=sideways', 'sort does not have a valid value'],
      ['two_factor=maybe', 'two_factor does not have a valid value'],
      ['active=perhaps', 'active is invalid'],
      ['page=first', 'page is invalid'],
      [`search=${'x'.repeat(300)}`, 'search is too long (maximum is 255 characters)'],
    ];
    for (const [query, error] of cases) {
      const response = await harness.api.get(`/api/v4/users?${query}`).set(admin);
      expect({ query, status: response.status, body: response.body }).toEqual({ query, status: 400, body: { error } });
    }
  });
});

describe('GET /users with keyset pagination', () => {
  let created: number[];
  beforeAll(async () => {
    created = [];
    for (const name of ['keyset-one', 'keyset-two', 'keyset-three']) created.push((await harness.createUser(name)).id);
  });

  it('pages by id after a cursor, linking the next page and giving no totals', async () => {
    const first = await harness.api.get('/api/v4/users?pagination=keyset&order_by=id&sort=asc&per_page=2&search=keyset-').set(admin);
    expect(first.status).toBe(200);
    expect(first.body.map((user: { id: number }) => user.id)).toEqual(created.slice(0, 2));
    expect(first.headers['x-total']).toBeUndefined();
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link ?? '')?.[1];
    expect(next).toMatch(/cursor=/);
    const url = new URL(next!);
    const second = await harness.api.get(`${url.pathname}${url.search}`).set(admin);
    expect(second.body.map((user: { id: number }) => user.id)).toEqual(created.slice(2));
    expect(second.headers.link).toBeUndefined();
    const descending = await harness.api.get('/api/v4/users?pagination=keyset&sort=desc&per_page=5&search=keyset-').set(admin);
    expect(descending.body.map((user: { id: number }) => user.id)).toEqual([...created].reverse());
  });

  it('answers 400 naming the parameter for a bad pagination, order or cursor', async () => {
    const bad = async (query: string) => (await harness.api.get(`/api/v4/users?${query}`).set(admin)).body;
    expect(await bad('pagination=sideways')).toEqual({ error: 'pagination does not have a valid value' });
    expect(await bad('pagination=keyset&order_by=name')).toEqual({ error: 'order_by does not have a valid value' });
    expect(await bad('pagination=keyset&cursor=not-a-cursor')).toEqual({ error: 'cursor is invalid' });
  });
});

describe('GET /users/:id and GET /user', () => {
  it('gives administrators the single-user administrator view', async () => {
    const created = await harness.createUser('single-admin-view', { note: 'watch this one', shared_runners_minutes_limit: 500 });
    const response = await harness.api.get(`/api/v4/users/${created.id}`).set(admin);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: created.id,
      email: 'single-admin-view@example.com',
      is_admin: false,
      note: 'watch this one',
      plan: null,
      trial: false,
      sign_in_count: 0,
      current_sign_in_ip: null,
      last_sign_in_ip: null,
      shared_runners_minutes_limit: 500,
      extra_shared_runners_minutes_limit: null,
      private_profile: false,
      can_create_project: true,
    });
    expect(gitlabSchemaErrors('user/admin.json', response.body, { optional: ['pronouns'] })).toEqual([]);
  });

  it('gives others the single-user public view and anonymous callers active users only', async () => {
    const created = await harness.createUser('single-public-view', { bio: '**bold** <script>x</script>' });
    const asUser = await harness.api.get(`/api/v4/users/${created.id}`).set(callerHeader(userCaller(1000, 'someone')));
    expect(Object.keys(asUser.body).sort()).toEqual(
      [
        'avatar_url',
        'bio',
        'bio_html',
        'created_at',
        'id',
        'job_title',
        'location',
        'messenger_id',
        'name',
        'organization',
        'professional_profile',
        'public_email',
        'social_handle',
        'state',
        'username',
        'web_url',
        'website_url',
      ].sort(),
    );
    expect(asUser.body.bio_html).toBe('<p><strong>bold</strong> &lt;script&gt;x&lt;/script&gt;</p>');
    expect((await harness.api.get(`/api/v4/users/${created.id}`).set(anonymous)).status).toBe(200);
    const block = await harness.api.post(`/api/v4/users/${created.id}/block`).set(admin);
    // The gateway that proxied the block forgets the user's cached authentications before answering.
    expect(block.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(created.id));
    const blocked = await harness.api.get(`/api/v4/users/${created.id}`).set(anonymous);
    expect(blocked.status).toBe(404);
    expect(blocked.body).toEqual({ message: '404 User Not Found' });
  });

  it('hides when a private profile was created from everybody but its owner and administrators', async () => {
    const created = await harness.createUser('single-private', { private_profile: true });
    const asOther = await harness.api.get(`/api/v4/users/${created.id}`).set(callerHeader(userCaller(1000, 'someone')));
    expect(asOther.status).toBe(200);
    expect(asOther.body).not.toHaveProperty('created_at');
    expect((await harness.api.get(`/api/v4/users/${created.id}`).set(anonymous)).body).not.toHaveProperty('created_at');
    const asOwner = await harness.api.get(`/api/v4/users/${created.id}`).set(callerHeader(userCaller(created.id, 'single-private')));
    expect(asOwner.body).toHaveProperty('created_at');
    expect((await harness.api.get(`/api/v4/users/${created.id}`).set(admin)).body).toHaveProperty('created_at');
  });

  it('adds custom attributes for administrators who ask', async () => {
    const created = await harness.createUser('single-attributes');
    await harness.api.put(`/api/v4/users/${created.id}/custom_attributes/tier`).set(admin).send({ value: 'gold' });
    const shown = await harness.api.get(`/api/v4/users/${created.id}?with_custom_attributes=true`).set(admin);
    expect(shown.body.custom_attributes).toEqual([{ key: 'tier', value: 'gold' }]);
    const asUser = await harness.api
      .get(`/api/v4/users/${created.id}?with_custom_attributes=true`)
      .set(callerHeader(userCaller(created.id, 'single-attributes')));
    expect(asUser.body).not.toHaveProperty('custom_attributes');
  });

  it('shows the current user their own view, without administrator-only fields', async () => {
    const created = await harness.createUser('current-user', { job_title: 'Engineer', note: 'admins only' });
    const response = await harness.api.get('/api/v4/user').set(callerHeader(userCaller(created.id, 'current-user')));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: created.id, email: 'current-user@example.com', private_profile: false, identities: [] });
    for (const field of ['is_admin', 'job_title', 'note', 'current_sign_in_ip', 'last_sign_in_ip', 'plan', 'sign_in_count']) {
      expect(response.body).not.toHaveProperty(field);
    }
    expect(gitlabSchemaErrors('user/public.json', response.body)).toEqual([]);
    const asAdmin = await harness.api.get('/api/v4/user').set(admin);
    expect(asAdmin.body).toMatchObject({ id: 1, username: 'root', is_admin: true, job_title: '', sign_in_count: 0 });
    expect(asAdmin.body).toHaveProperty('last_sign_in_ip');
    expect((await harness.api.get('/api/v4/user').set(anonymous)).status).toBe(401);
  });
});

describe('POST /users', () => {
  it('defaults bio to an empty string and turns a null private_profile into false', async () => {
    const created = await harness.createUser('defaults', { private_profile: null });
    expect(created).toMatchObject({ bio: '', private_profile: false, projects_limit: 100000, can_create_group: true, theme_id: 1 });
  });

  it('hashes the password with argon2 and never stores it in clear', async () => {
    const created = await harness.createUser('hashed', { password: 'correct-horse-battery' });
    const [row] = await harness.sql<{ password_hash: string }>('select password_hash from users where id = $1', [created.id]);
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    expect(row?.password_hash).not.toContain('correct-horse-battery');
  });

  it('lets the password flags win over a short password, alone or combined', async () => {
    const flagged = await harness.createUser('flag-wins', { password: 'short', force_random_password: true, reset_password: true });
    const [row] = await harness.sql<{ password_hash: string }>('select password_hash from users where id = $1', [flagged.id]);
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('names missing and conflicting parameters the way Grape does', async () => {
    const response = await harness.api.post('/api/v4/users').set(admin).send({ email: 'x@example.com', name: 'X', username: 'xx' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'password, reset_password, force_random_password are missing, at least one parameter must be provided',
    });
    const noName = await harness.api
      .post('/api/v4/users')
      .set(admin)
      .send({ email: 'x@example.com', username: 'xx', password: 'long-password' });
    expect(noName.body).toEqual({ error: 'name is missing' });
  });

  it('reports record validation field by field', async () => {
    const response = await harness.api.post('/api/v4/users').set(admin).send({
      email: 'not-an-email',
      name: ' ',
      username: '-bad.',
      password: 'long-enough-password',
      theme_id: 99,
      color_scheme_id: 0,
      website_url: 'javascript:alert(1)',
      projects_limit: -1,
      public_email: 'someone-else@example.com',
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.message).sort()).toEqual(
      ['color_scheme_id', 'email', 'name', 'projects_limit', 'public_email', 'theme_id', 'username', 'website_url'].sort(),
    );
    expect(response.body.message.public_email).toEqual(['is not an email you own']);
  });

  it('refuses oversized strings with 400', async () => {
    const response = await harness.api
      .post('/api/v4/users')
      .set(admin)
      .send({
        email: 'big@example.com',
        name: 'Big',
        username: 'big',
        password: 'long-enough-password',
        bio: 'b'.repeat(256),
      });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'bio is too long (maximum is 255 characters)' });
  });
});

describe('PUT /users/:id', () => {
  it('updates attributes, records what changed and answers the administrator view', async () => {
    const created = await harness.createUser('to-update', { bio: 'old' });
    const response = await harness.api
      .put(`/api/v4/users/${created.id}`)
      .set(admin)
      .send({ name: 'Renamed', bio: 'new bio', private_profile: null, external: true, extern_uid: 'e-1', provider: 'ldapmain' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: created.id,
      name: 'Renamed',
      bio: 'new bio',
      external: true,
      private_profile: false,
      identities: [{ provider: 'ldapmain', extern_uid: 'e-1' }],
      sign_in_count: 0,
    });
    const [event] = (await harness.outboxEvents('identity.user.updated')).filter(
      (candidate) => candidate.aggregateId === String(created.id),
    );
    const changes = UserUpdated.fromJSON(event?.data).changes;
    expect(changes).toEqual(
      expect.arrayContaining([
        { attribute: 'name', from: 'User to-update', to: 'Renamed' },
        { attribute: 'external', from: 'false', to: 'true' },
      ]),
    );
    // A second provider adds an identity; the same provider replaces its uid.
    await harness.api.put(`/api/v4/users/${created.id}`).set(admin).send({ extern_uid: 'e-2', provider: 'ldapmain' });
    const again = await harness.api.put(`/api/v4/users/${created.id}`).set(admin).send({ extern_uid: 'g-1', provider: 'github' });
    expect(again.body.identities).toEqual([
      { provider: 'ldapmain', extern_uid: 'e-2' },
      { provider: 'github', extern_uid: 'g-1' },
    ]);
  });

  it('forces an external user to create no groups and no personal projects, on create and on update', async () => {
    const created = await harness.api.post('/api/v4/users').set(admin).send({
      email: 'ext-create@example.com',
      name: 'Ext',
      username: 'ext-create',
      password: 'a-long-enough-password',
      external: true,
      can_create_group: true,
      projects_limit: 50,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ external: true, can_create_group: false, projects_limit: 0, can_create_project: false });

    const internal = await harness.createUser('ext-update', { can_create_group: true, projects_limit: 10 });
    const madeExternal = await harness.api.put(`/api/v4/users/${internal.id}`).set(admin).send({ external: true });
    expect(madeExternal.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(internal.id));
    expect(madeExternal.body).toMatchObject({ external: true, can_create_group: false, projects_limit: 0 });
    const widened = await harness.api.put(`/api/v4/users/${internal.id}`).set(admin).send({ can_create_group: true, projects_limit: 5 });
    expect(widened.body).toMatchObject({ external: true, can_create_group: false, projects_limit: 0 });

    const asExternal = callerHeader(userCaller(created.body.id, 'ext-create'));
    expect((await harness.api.post('/api/v4/groups').set(asExternal).send({ name: 'Ext group', path: 'ext-group' })).status).toBe(403);
    const project = await harness.api.post('/api/v4/projects').set(asExternal).send({ name: 'ext-project' });
    expect(project.status).toBe(400);
    expect(await harness.sql("select 1 from projects where path = 'ext-project'")).toHaveLength(0);
  });

  it('expires a password an administrator sets for someone else', async () => {
    const created = await harness.createUser('new-password');
    const response = await harness.api.put(`/api/v4/users/${created.id}`).set(admin).send({ password: 'another-long-password' });
    expect(response.status).toBe(200);
    const [row] = await harness.sql<{ password_expires_at: Date | null }>('select password_expires_at from users where id = $1', [
      created.id,
    ]);
    expect(row?.password_expires_at).toBeInstanceOf(Date);
    const events = await harness.outboxEvents('identity.user.updated');
    const event = events.find((candidate) => candidate.aggregateId === String(created.id));
    expect(JSON.stringify(event)).not.toContain('another-long-password');
    expect(UserUpdated.fromJSON(event?.data).changes).toEqual([{ attribute: 'password', from: '', to: '' }]);
  });

  it('answers 404 for a taken email or username, as the spec says, and for an unknown user', async () => {
    await harness.createUser('taken-name');
    const created = await harness.createUser('wants-taken');
    const email = await harness.api.put(`/api/v4/users/${created.id}`).set(admin).send({ email: 'TAKEN-NAME@example.com' });
    expect(email.status).toBe(404);
    expect(email.body).toEqual({ message: '404 Email has already been taken' });
    const username = await harness.api.put(`/api/v4/users/${created.id}`).set(admin).send({ username: 'Taken-Name' });
    expect(username.status).toBe(404);
    const unknown = await harness.api.put('/api/v4/users/999999').set(admin).send({ name: 'x' });
    expect(unknown.body).toEqual({ message: '404 User Not Found' });
    const unchanged = await harness.api.get(`/api/v4/users/${created.id}`).set(admin);
    expect(unchanged.body).toMatchObject({ email: 'wants-taken@example.com', username: 'wants-taken' });
  });

  it('confirms a changed email only when told to skip reconfirmation', async () => {
    const created = await harness.createUser('reconfirm', { skip_confirmation: true });
    const unconfirmed = await harness.api.put(`/api/v4/users/${created.id}`).set(admin).send({ email: 'reconfirm-2@example.com' });
    expect(unconfirmed.body.confirmed_at).toBeNull();
    const confirmed = await harness.api
      .put(`/api/v4/users/${created.id}`)
      .set(admin)
      .send({ email: 'reconfirm-3@example.com', skip_reconfirmation: true });
    expect(confirmed.body.confirmed_at).not.toBeNull();
  });

  it('is for administrators only and validates like create', async () => {
    const created = await harness.createUser('update-rules');
    expect(
      (
        await harness.api
          .put(`/api/v4/users/${created.id}`)
          .set(callerHeader(userCaller(created.id, 'update-rules')))
          .send({ name: 'x' })
      ).status,
    ).toBe(403);
    expect((await harness.api.put(`/api/v4/users/${created.id}`).set(anonymous).send({ name: 'x' })).status).toBe(401);
    const invalid = await harness.api.put(`/api/v4/users/${created.id}`).set(admin).send({ email: 'nope', password: 'short' });
    expect(invalid.body).toEqual({ message: { email: ['is invalid'], password: ['is too short (minimum is 8 characters)'] } });
    const wrongType = await harness.api.put(`/api/v4/users/${created.id}`).set(admin).send({ admin: 'sometimes' });
    expect(wrongType.body).toEqual({ error: 'admin is invalid' });
  });
});

describe('DELETE /users/:id and DELETE /users/:id/identities/:provider', () => {
  it('soft-deletes a user, handing contributions to the ghost user', async () => {
    const created = await harness.createUser('to-delete');
    const response = await harness.api.delete(`/api/v4/users/${created.id}`).set(admin);
    expect(response.status).toBe(204);
    expect(response.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(created.id));
    expect((await harness.api.get(`/api/v4/users/${created.id}`).set(admin)).status).toBe(404);
    const [event] = (await harness.outboxEvents('identity.user.deleted')).filter(
      (candidate) => candidate.aggregateId === String(created.id),
    );
    const deleted = UserDeleted.fromJSON(event?.data);
    expect(deleted).toMatchObject({ user: { id: created.id, username: 'to-delete' }, hardDelete: false });
    const ghost = await harness.api.get(`/api/v4/users/${deleted.ghostUserId}`).set(admin);
    expect(ghost.body).toMatchObject({ username: 'ghost', name: 'Ghost User', state: 'blocked' });
    const internal = await harness.api.get('/api/v4/users?exclude_internal=true&per_page=100').set(admin);
    expect(usernames(internal.body)).not.toContain('ghost');
    expect((await harness.api.delete(`/api/v4/users/${deleted.ghostUserId}`).set(admin)).status).toBe(409);
  });

  it('refuses to soft-delete the sole owner of a group, unless hard deleting', async () => {
    const owner = await harness.createUser('sole-owner');
    const coOwner = await harness.createUser('co-owner');
    await harness.sql("insert into members (source_type, source_id, user_id, access_level) values ('Group', 777, $1, 50)", [owner.id]);
    await harness.sql("insert into members (source_type, source_id, user_id, access_level) values ('Group', 778, $1, 50)", [coOwner.id]);
    await harness.sql("insert into members (source_type, source_id, user_id, access_level) values ('Group', 778, $1, 50)", [owner.id]);
    const refused = await harness.api.delete(`/api/v4/users/${owner.id}`).set(admin);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'User cannot be removed while is the sole-owner of a group' });
    // Sharing ownership is enough.
    expect((await harness.api.delete(`/api/v4/users/${coOwner.id}`).set(admin)).status).toBe(204);
    const hard = await harness.api.delete(`/api/v4/users/${owner.id}?hard_delete=true`).set(admin);
    expect(hard.status).toBe(204);
    const [event] = (await harness.outboxEvents('identity.user.deleted')).filter((candidate) => candidate.aggregateId === String(owner.id));
    expect(UserDeleted.fromJSON(event?.data)).toMatchObject({ hardDelete: true, ghostUserId: 0 });
  });

  it('never deletes the last administrator', async () => {
    const refused = await harness.api.delete('/api/v4/users/1').set(admin);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: 'User cannot be removed while is the last administrator' });
    const second = await harness.createUser('second-admin', { admin: true });
    expect((await harness.api.delete(`/api/v4/users/${second.id}`).set(admin)).status).toBe(204);
  });

  it('answers 404 for an unknown user, 400 for a malformed flag and 403 to non-administrators', async () => {
    expect((await harness.api.delete('/api/v4/users/999999').set(admin)).body).toEqual({ message: '404 User Not Found' });
    const created = await harness.createUser('delete-rules');
    expect((await harness.api.delete(`/api/v4/users/${created.id}?hard_delete=maybe`).set(admin)).status).toBe(400);
    expect((await harness.api.delete(`/api/v4/users/${created.id}`).set(callerHeader(userCaller(created.id, 'delete-rules')))).status).toBe(
      403,
    );
  });

  it('removes one identity of a user', async () => {
    const created = await harness.createUser('with-identity', { extern_uid: 'x-1', provider: 'ldapmain' });
    const missing = await harness.api.delete(`/api/v4/users/${created.id}/identities/github`).set(admin);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Identity Not Found' });
    expect((await harness.api.delete(`/api/v4/users/${created.id}/identities/ldapmain`).set(admin)).status).toBe(204);
    expect((await harness.api.get(`/api/v4/users/${created.id}`).set(admin)).body.identities).toEqual([]);
    expect((await harness.api.delete('/api/v4/users/999999/identities/ldapmain').set(admin)).body).toEqual({
      message: '404 User Not Found',
    });
    expect((await harness.api.delete(`/api/v4/users/${created.id}/identities/ldapmain`).set(callerHeader(userCaller(5, 'x')))).status).toBe(
      403,
    );
  });
});

describe('POST /users/:id/block and /unblock', () => {
  it('blocks a user, whose token then stops working, and unblocks them', async () => {
    const created = await harness.createUser('blockable');
    const token = await tokenFor(created.id);
    const blocked = await harness.api.post(`/api/v4/users/${created.id}/block`).set(admin);
    expect(blocked.status).toBe(201);
    expect(blocked.body).toBe(true);
    expect((await harness.api.get(`/api/v4/users/${created.id}`).set(admin)).body.state).toBe('blocked');
    const refused = callUnary(harness.grpc.authenticate.bind(harness.grpc), { token, sudo: '' });
    await expect(refused).rejects.toBeInstanceOf(ForbiddenError);
    await expect(refused).rejects.toThrow('Your account has been blocked.');
    const event = (await harness.outboxEvents('identity.user.blocked')).find((candidate) => candidate.aggregateId === String(created.id));
    expect(UserBlocked.fromJSON(event?.data).user).toMatchObject({ id: created.id, state: 'blocked' });

    const again = await harness.api.post(`/api/v4/users/${created.id}/block`).set(admin);
    expect(again.status).toBe(201);
    expect(again.text).toBe('null');
    expect(
      (await harness.outboxEvents('identity.user.blocked')).filter((candidate) => candidate.aggregateId === String(created.id)),
    ).toHaveLength(1);

    const unblocked = await harness.api.post(`/api/v4/users/${created.id}/unblock`).set(admin);
    expect(unblocked.status).toBe(201);
    expect(unblocked.body).toBe(true);
    const authenticated = await callUnary(harness.grpc.authenticate.bind(harness.grpc), { token, sudo: '' });
    expect(authenticated.user?.username).toBe('blockable');
    const notBlocked = await harness.api.post(`/api/v4/users/${created.id}/unblock`).set(admin);
    expect(notBlocked.body).toBe(false);
  });

  it('refuses to block the caller, unknown users and non-administrators', async () => {
    const self = await harness.api.post('/api/v4/users/1/block').set(admin);
    expect(self.status).toBe(403);
    expect(self.body).toEqual({ message: '403 Forbidden - The API initiating user cannot be blocked by the API' });
    expect((await harness.api.post('/api/v4/users/999999/block').set(admin)).status).toBe(404);
    expect((await harness.api.post('/api/v4/users/999999/unblock').set(admin)).status).toBe(404);
    expect((await harness.api.post('/api/v4/users/1/unblock').set(callerHeader(userCaller(2, 'x')))).status).toBe(403);
    expect((await harness.api.post('/api/v4/users/1/block').set(anonymous)).status).toBe(401);
  });
});

describe('token scopes', () => {
  const scoped = (scopes: string[]) =>
    callerHeader({ kind: 'user', userId: 1, username: 'root', name: 'Administrator', isAdmin: true, scopes });
  const insufficient = (scope: string) => ({
    error: 'insufficient_scope',
    error_description: 'The request requires higher privileges than provided by the access token.',
    scope,
  });

  it('lets a read_user token read users and nothing more', async () => {
    const token = scoped(['read_user']);
    expect((await harness.api.get('/api/v4/user').set(token)).status).toBe(200);
    expect((await harness.api.get('/api/v4/users').set(token)).status).toBe(200);
    expect((await harness.api.get('/api/v4/users/1').set(token)).status).toBe(200);
    const created = await harness.api.post('/api/v4/users').set(token).send({ username: 'scoped-x', name: 'X', email: 'x@example.com' });
    expect(created.status).toBe(403);
    expect(created.body).toEqual(insufficient('api'));
    expect(
      (
        await harness.api
          .post('/api/v4/users/1/personal_access_tokens')
          .set(token)
          .send({ name: 't', scopes: ['api'] })
      ).status,
    ).toBe(403);
  });

  it("refuses a read_api token every write, even an administrator's", async () => {
    const target = await harness.createUser('scoped-target');
    const token = scoped(['read_api', 'sudo']);
    expect((await harness.api.get('/api/v4/users').set(token)).status).toBe(200);
    const blocked = await harness.api.post(`/api/v4/users/${target.id}/block`).set(token);
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual(insufficient('api'));
    expect((await harness.api.put(`/api/v4/users/${target.id}`).set(token).send({ name: 'Renamed' })).status).toBe(403);
    expect((await harness.api.delete(`/api/v4/users/${target.id}`).set(token)).status).toBe(403);
    expect((await harness.api.get(`/api/v4/users/${target.id}`).set(admin)).body.state).toBe('active');
  });
});

describe('sudo through gRPC Authenticate', () => {
  it('lets an administrator act as a user named by id or username', async () => {
    const target = await harness.createUser('sudo-target');
    const byUsername = await callUnary(harness.grpc.authenticate.bind(harness.grpc), { token: TEST_ROOT_TOKEN, sudo: 'SUDO-target' });
    expect(byUsername.user).toMatchObject({ id: target.id, username: 'sudo-target', isAdmin: false });
    expect(byUsername.impersonatorId).toBe(1);
    const byId = await callUnary(harness.grpc.authenticate.bind(harness.grpc), { token: TEST_ROOT_TOKEN, sudo: String(target.id) });
    expect(byId.user?.id).toBe(target.id);
  });

  it("refuses a non-administrator's sudo, a token without the sudo scope and an unknown target", async () => {
    const plain = await harness.createUser('sudo-plain');
    const plainToken = await tokenFor(plain.id, ['api', 'sudo']);
    await expect(callUnary(harness.grpc.authenticate.bind(harness.grpc), { token: plainToken, sudo: 'root' })).rejects.toThrow(
      'Must be admin to use sudo',
    );
    const otherAdmin = await harness.createUser('sudo-admin', { admin: true });
    const noSudoScope = await tokenFor(otherAdmin.id, ['api']);
    await expect(
      callUnary(harness.grpc.authenticate.bind(harness.grpc), { token: noSudoScope, sudo: 'sudo-plain' }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(callUnary(harness.grpc.authenticate.bind(harness.grpc), { token: noSudoScope, sudo: 'sudo-plain' })).rejects.toMatchObject(
      { name: 'InsufficientScopeError', scopes: ['sudo'] },
    );
    await expect(
      callUnary(harness.grpc.authenticate.bind(harness.grpc), { token: TEST_ROOT_TOKEN, sudo: 'nobody' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(callUnary(harness.grpc.authenticate.bind(harness.grpc), { token: 'glpat-unknown', sudo: '' })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
  });

  it('answers GET /user for the user acted as', async () => {
    const target = await harness.createUser('sudo-current');
    const authenticated = await callUnary(harness.grpc.authenticate.bind(harness.grpc), { token: TEST_ROOT_TOKEN, sudo: 'sudo-current' });
    const caller = {
      kind: 'user' as const,
      userId: Number(authenticated.user?.id),
      username: String(authenticated.user?.username),
      name: String(authenticated.user?.name),
      isAdmin: Boolean(authenticated.user?.isAdmin),
      scopes: authenticated.scopes,
      impersonatorId: authenticated.impersonatorId,
    };
    const response = await harness.api.get('/api/v4/user').set(callerHeader(caller));
    expect(response.body).toMatchObject({ id: target.id, username: 'sudo-current' });
    expect(response.body).not.toHaveProperty('is_admin');
  });
});
