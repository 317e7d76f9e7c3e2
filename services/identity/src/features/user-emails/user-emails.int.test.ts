/** Users' secondary emails against real PostgreSQL: own and administrators' endpoints, confirmation, commit-author matching and events. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { callUnary } from '@platform/grpc';
import { UserEmailAdded, UserEmailRemoved } from '@platform/proto/identity/v1/user-email-events';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
let owner: { id: number; username: string };
let other: { id: number; username: string };
let asOwner: Record<string, string>;
let asOther: Record<string, string>;
const admin = callerHeader(adminCaller());

beforeAll(async () => {
  harness = await startIdentityHarness('user_emails');
  owner = await harness.createUser('mail-owner', { skip_confirmation: true });
  other = await harness.createUser('mail-other');
  asOwner = callerHeader(userCaller(owner.id, owner.username));
  asOther = callerHeader(userCaller(other.id, other.username));
});

afterAll(async () => {
  await harness?.stop();
});

describe('/user/emails', () => {
  it('adds, lists, shows and deletes the current user their own secondary emails, unconfirmed', async () => {
    const added = await harness.api.post('/api/v4/user/emails').set(asOwner).send({ email: 'owner-second@example.com' });
    expect([added.status, added.body]).toEqual([201, { id: expect.any(Number), email: 'owner-second@example.com', confirmed_at: null }]);
    const listed = await harness.api.get('/api/v4/user/emails').set(asOwner);
    expect([listed.status, listed.body, listed.headers['x-total']]).toEqual([200, [added.body], '1']);
    expect((await harness.api.get(`/api/v4/user/emails/${added.body.id}`).set(asOwner)).body).toEqual(added.body);
    // Somebody else's address is as unknown as a missing one.
    expect((await harness.api.get(`/api/v4/user/emails/${added.body.id}`).set(asOther)).body).toEqual({ message: '404 Email Not Found' });
    expect((await harness.api.delete(`/api/v4/user/emails/${added.body.id}`).set(asOther)).status).toBe(404);
    expect((await harness.api.delete(`/api/v4/user/emails/${added.body.id}`).set(asOwner)).status).toBe(204);
    expect((await harness.api.get('/api/v4/user/emails').set(asOwner)).body).toEqual([]);
  });

  it('refuses a taken address (primary or secondary, whatever its case), a malformed one, and a missing one', async () => {
    const first = await harness.api.post('/api/v4/user/emails').set(asOther).send({ email: 'shared@example.com' });
    expect(first.status).toBe(201);
    for (const email of ['SHARED@example.com', 'mail-owner@example.com']) {
      const taken = await harness.api.post('/api/v4/user/emails').set(asOwner).send({ email });
      expect([email, taken.status, taken.body]).toEqual([email, 400, { message: { email: ['has already been taken'] } }]);
    }
    const malformed = await harness.api.post('/api/v4/user/emails').set(asOwner).send({ email: 'not an address' });
    expect([malformed.status, malformed.body]).toEqual([400, { message: { email: ['is invalid'] } }]);
    expect((await harness.api.post('/api/v4/user/emails').set(asOwner).send({})).body).toEqual({ error: 'email is missing' });
    expect((await harness.api.get('/api/v4/user/emails').set(callerHeader({ kind: 'anonymous' }))).status).toBe(401);
  });
});

describe('/users/:id/emails (administrators)', () => {
  it("manages any user's emails, confirmed at once with skip_confirmation, which only administrators may skip", async () => {
    const confirmed = await harness.api
      .post(`/api/v4/users/${owner.id}/emails`)
      .set(admin)
      .send({ email: 'owner-work@example.com', skip_confirmation: true });
    expect([confirmed.status, confirmed.body]).toEqual([
      201,
      { id: expect.any(Number), email: 'owner-work@example.com', confirmed_at: expect.any(String) },
    ]);
    const pending = await harness.api.post(`/api/v4/users/${owner.id}/emails`).set(admin).send({ email: 'owner-pending@example.com' });
    expect(pending.body.confirmed_at).toBeNull();
    const listed = await harness.api.get(`/api/v4/users/${owner.id}/emails`).set(admin);
    expect(listed.body.map((email: { email: string }) => email.email)).toEqual(['owner-work@example.com', 'owner-pending@example.com']);
    expect((await harness.api.delete(`/api/v4/users/${owner.id}/emails/${pending.body.id}`).set(admin)).status).toBe(204);
    expect((await harness.api.delete(`/api/v4/users/${owner.id}/emails/${pending.body.id}`).set(admin)).body).toEqual({
      message: '404 Email Not Found',
    });
    expect((await harness.api.get('/api/v4/users/999999/emails').set(admin)).body).toEqual({ message: '404 User Not Found' });
    expect((await harness.api.get(`/api/v4/users/${owner.id}/emails`).set(asOwner)).status).toBe(403);
    expect((await harness.api.post(`/api/v4/users/${owner.id}/emails`).set(asOwner).send({ email: 'x@example.com' })).status).toBe(403);
    expect((await harness.api.get('/api/v4/users/abc/emails').set(admin)).body).toEqual({ error: 'id is invalid' });
  });

  it('lets confirmed secondary emails, and only those, name their user as a commit author', async () => {
    await harness.api.post(`/api/v4/users/${other.id}/emails`).set(admin).send({ email: 'other-ci@example.com', skip_confirmation: true });
    await harness.api.post('/api/v4/user/emails').set(asOther).send({ email: 'other-unverified@example.com' });
    const find = async (email: string) =>
      (await callUnary(harness.grpc.findUsersByEmail.bind(harness.grpc), { emails: [email] })).users.map((user) => user.id);
    expect(await find('OTHER-CI@example.com')).toEqual([other.id]);
    expect(await find('owner-work@example.com')).toEqual([owner.id]);
    expect(await find('other-unverified@example.com')).toEqual([]);
  });
});

describe('user email events', () => {
  it("records each address added and removed, with the owner and whoever acted, for the owner's audit events", async () => {
    const added = await harness.api
      .post(`/api/v4/users/${owner.id}/emails`)
      .set(admin)
      .send({ email: 'owner-audited@example.com', skip_confirmation: true });
    expect(added.status).toBe(201);
    expect((await harness.api.delete(`/api/v4/user/emails/${added.body.id}`).set(asOwner)).status).toBe(204);
    const ofThisEmail = (event: { data: unknown }, decode: (data: unknown) => { email?: { id: number } | undefined }) =>
      decode(event.data).email?.id === added.body.id;
    const addedEvent = (await harness.outboxEvents('identity.user_email.added')).find((event) =>
      ofThisEmail(event, (data) => UserEmailAdded.fromJSON(data)),
    );
    expect(UserEmailAdded.fromJSON(addedEvent?.data)).toEqual({
      userId: owner.id,
      username: owner.username,
      email: { id: added.body.id, email: 'owner-audited@example.com', confirmedAt: expect.any(String) },
    });
    expect(addedEvent?.actor).toMatchObject({ id: adminCaller().userId });
    const removedEvent = (await harness.outboxEvents('identity.user_email.removed')).find((event) =>
      ofThisEmail(event, (data) => UserEmailRemoved.fromJSON(data)),
    );
    expect(UserEmailRemoved.fromJSON(removedEvent?.data)).toMatchObject({
      userId: owner.id,
      email: { email: 'owner-audited@example.com' },
    });
    expect(removedEvent?.actor).toMatchObject({ id: owner.id });
  });
});
