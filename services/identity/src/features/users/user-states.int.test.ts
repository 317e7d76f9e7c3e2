/** Deactivation, activation, bans and their refusals against real PostgreSQL: the state, the tokens, the events. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AUTHENTICATION_CHANGED_HEADER } from '@platform/auth';
import { callUnary } from '@platform/grpc';
import { ForbiddenError } from '@platform/errors';
import { UserUpdated } from '@platform/proto/identity/v1/events';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, TEST_EXTERNAL_URL, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
const admin = callerHeader(adminCaller());

beforeAll(async () => {
  harness = await startIdentityHarness('user-states');
});

afterAll(async () => {
  await harness?.stop();
});

async function tokenFor(userId: number): Promise<string> {
  const issued = await harness.api
    .post(`/api/v4/users/${userId}/personal_access_tokens`)
    .set(admin)
    .send({ name: 'test', scopes: ['api'] });
  return issued.body.token as string;
}

const authenticate = (token: string) => callUnary(harness.grpc.authenticate.bind(harness.grpc), { token, sudo: '' });

/** A user nobody has seen for `days` days, signed up long before. */
async function dormantUser(username: string, days = 91): Promise<{ id: number }> {
  const user = await harness.createUser(username);
  await harness.sql(`update users set created_at = now() - interval '400 days', last_activity_on = current_date - $2::int where id = $1`, [
    user.id,
    days,
  ]);
  return user;
}

const post = (id: number, action: string) => harness.api.post(`/api/v4/users/${id}/${action}`).set(admin);

async function stateOf(id: number): Promise<string> {
  return (await harness.api.get(`/api/v4/users/${id}`).set(admin)).body.state as string;
}

async function stateChanges(id: number): Promise<Array<{ attribute: string; from: string; to: string }>> {
  return (await harness.outboxEvents('identity.user.updated'))
    .filter((event) => event.aggregateId === String(id))
    .flatMap((event) => UserUpdated.fromJSON(event.data).changes.filter((change) => change.attribute === 'state'));
}

describe('POST /users/:id/deactivate and /activate', () => {
  it('deactivates a dormant user, whose token then is refused, and activates them again', async () => {
    const user = await dormantUser('dormant');
    const token = await tokenFor(user.id);

    const deactivated = await post(user.id, 'deactivate');
    expect(deactivated.status).toBe(201);
    expect(deactivated.body).toBe(true);
    expect(deactivated.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(user.id));
    expect(await stateOf(user.id)).toBe('deactivated');
    const refused = authenticate(token);
    await expect(refused).rejects.toBeInstanceOf(ForbiddenError);
    await expect(refused).rejects.toThrow(
      `Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at ${TEST_EXTERNAL_URL}`,
    );
    const again = await post(user.id, 'deactivate');
    expect(again.status).toBe(201);
    expect(again.text).toBe('null');

    const activated = await post(user.id, 'activate');
    expect(activated.status).toBe(201);
    expect(activated.body).toBe(true);
    expect(activated.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(user.id));
    expect(await stateOf(user.id)).toBe('active');
    expect((await authenticate(token)).user?.id).toBe(user.id);
    // Activating an active user changes nothing and says so as GitLab does.
    expect((await post(user.id, 'activate')).body).toBe(true);
    expect(await stateChanges(user.id)).toEqual([
      { attribute: 'state', from: 'active', to: 'deactivated' },
      { attribute: 'state', from: 'deactivated', to: 'active' },
    ]);
  });

  it('refuses to deactivate a user active in the dormant period, or created less than a week ago without activity', async () => {
    const recent = await dormantUser('recently-active', 10);
    const refusal = {
      message: 'The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated',
    };
    expect(await post(recent.id, 'deactivate')).toMatchObject({ status: 403, body: refusal });
    const newcomer = await harness.createUser('newcomer');
    expect(await post(newcomer.id, 'deactivate')).toMatchObject({ status: 403, body: refusal });
    expect(await stateOf(newcomer.id)).toBe('active');
  });

  it('counts a token used today as activity', async () => {
    const user = await dormantUser('back-again');
    await authenticate(await tokenFor(user.id));
    expect((await post(user.id, 'deactivate')).status).toBe(403);
  });

  it('refuses to deactivate or activate blocked and banned users, and to unblock deactivated ones', async () => {
    const blocked = await dormantUser('blocked-dormant');
    expect((await post(blocked.id, 'block')).status).toBe(201);
    const banned = await dormantUser('banned-dormant');
    expect((await post(banned.id, 'ban')).status).toBe(201);
    for (const id of [blocked.id, banned.id]) {
      expect((await post(id, 'deactivate')).body).toEqual({
        message: 'Error occurred. A blocked user cannot be deactivated',
      });
      expect((await post(id, 'activate')).body).toEqual({
        message: 'Error occurred. A blocked user must be unblocked to be activated',
      });
    }
    const deactivated = await dormantUser('deactivated-then-unblocked');
    expect((await post(deactivated.id, 'deactivate')).status).toBe(201);
    expect(await post(deactivated.id, 'unblock')).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Deactivated users cannot be unblocked by the API' },
    });
    expect(await stateOf(deactivated.id)).toBe('deactivated');
  });

  it('refuses to deactivate internal users', async () => {
    const ghost = await harness.createUser('ghost-like');
    await harness.sql(
      "update users set user_type = 'support_bot', created_at = now() - interval '400 days', last_activity_on = null where id = $1",
      [ghost.id],
    );
    expect((await post(ghost.id, 'deactivate')).body).toEqual({ message: 'Internal users cannot be deactivated' });
  });
});

describe('POST /users/:id/ban and /unban', () => {
  it('bans an active user, whose token then is refused, and lifts the ban', async () => {
    const user = await harness.createUser('banned-user');
    const token = await tokenFor(user.id);
    const banned = await post(user.id, 'ban');
    expect(banned.status).toBe(201);
    expect(banned.body).toBe(true);
    expect(banned.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(user.id));
    expect(await stateOf(user.id)).toBe('banned');
    await expect(authenticate(token)).rejects.toThrow('Your account has been blocked.');
    // A ban is a kind of block: blocking changes nothing, unblocking does not lift it.
    expect((await post(user.id, 'block')).text).toBe('null');
    expect((await post(user.id, 'unblock')).body).toBe(false);

    const unbanned = await post(user.id, 'unban');
    expect(unbanned.status).toBe(201);
    expect(unbanned.body).toBe(true);
    expect(await stateOf(user.id)).toBe('active');
    expect((await authenticate(token)).user?.id).toBe(user.id);
    expect(await stateChanges(user.id)).toEqual([
      { attribute: 'state', from: 'active', to: 'banned' },
      { attribute: 'state', from: 'banned', to: 'active' },
    ]);
  });

  it('refuses to ban users who are not active and to unban users who are not banned', async () => {
    const blocked = await harness.createUser('blocked-not-banned');
    await post(blocked.id, 'block');
    expect(await post(blocked.id, 'ban')).toMatchObject({
      status: 403,
      body: { message: 'You cannot ban blocked users.' },
    });
    const deactivated = await dormantUser('deactivated-not-banned');
    await post(deactivated.id, 'deactivate');
    expect((await post(deactivated.id, 'ban')).body).toEqual({ message: 'You cannot ban deactivated users.' });
    const active = await harness.createUser('active-not-banned');
    expect(await post(active.id, 'unban')).toMatchObject({
      status: 403,
      body: { message: 'You cannot unban active users.' },
    });
    expect(await stateOf(blocked.id)).toBe('blocked');
    expect(await stateOf(active.id)).toBe('active');
  });

  it('answers 404 for unknown users and refuses non-administrators', async () => {
    for (const action of ['deactivate', 'activate', 'ban', 'unban']) {
      expect(await post(999999, action)).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
      const asUser = await harness.api.post(`/api/v4/users/1/${action}`).set(callerHeader(userCaller(2, 'x')));
      expect(asUser.status).toBe(403);
    }
  });
});

describe('user lists and views', () => {
  it('show the state of deactivated and banned users', async () => {
    const deactivated = await dormantUser('listed-deactivated');
    await post(deactivated.id, 'deactivate');
    const banned = await harness.createUser('listed-banned');
    await post(banned.id, 'ban');
    const listed = await harness.api.get('/api/v4/users?search=listed-').set(admin);
    const states = Object.fromEntries(
      (listed.body as Array<{ username: string; state: string }>).map((user) => [user.username, user.state]),
    );
    expect(states).toEqual({ 'listed-deactivated': 'deactivated', 'listed-banned': 'banned' });
    // Only active users are shown to anonymous callers.
    const anonymous = callerHeader({ kind: 'anonymous' });
    expect((await harness.api.get(`/api/v4/users/${banned.id}`).set(anonymous)).status).toBe(404);
  });
});
