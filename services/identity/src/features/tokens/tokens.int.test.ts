/** Personal access token self-service against real PostgreSQL: listing, showing, revoking, rotating, refusals. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AUTHENTICATION_CHANGED_HEADER, type Caller } from '@platform/auth';
import { InvalidTokenError, UnauthorizedError } from '@platform/errors';
import { callUnary } from '@platform/grpc';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let harness: IdentityHarness;
let owner: { id: number; username: string };
let other: { id: number; username: string };
let asOwner: Record<string, string>;
const asAdmin = callerHeader(adminCaller());

beforeAll(async () => {
  harness = await startIdentityHarness('tokens');
  owner = await harness.createUser('token-owner');
  other = await harness.createUser('token-other');
  asOwner = callerHeader(userCaller(owner.id, owner.username));
});

afterAll(async () => {
  await harness?.stop();
});

async function issue(userId: number, body: Record<string, unknown> = {}) {
  const response = await harness.api
    .post(`/api/v4/users/${userId}/personal_access_tokens`)
    .set(asAdmin)
    .send({ name: 'token', scopes: ['api'], ...body });
  expect(response.status).toBe(201);
  return response.body as { id: number; token: string; name: string };
}

function authenticate(token: string) {
  return callUnary(harness.grpc.authenticate.bind(harness.grpc), { token, sudo: '' });
}

/** The caller the gateway signs for a request made with the token `tokenId`. */
function withToken(user: { id: number; username: string }, tokenId: number): Record<string, string> {
  const caller: Caller = { ...userCaller(user.id, user.username), tokenId };
  return callerHeader(caller);
}

describe('personal access tokens', () => {
  it("lists the caller's own tokens with GitLab's filters; administrators see everybody's", async () => {
    const ci = await issue(owner.id, { name: 'ci-runner' });
    const deploy = await issue(owner.id, { name: 'deploy' });
    await issue(other.id, { name: 'someone-elses' });
    await harness.api.delete(`/api/v4/personal_access_tokens/${deploy.id}`).set(asOwner).expect(204);

    const own = await harness.api.get('/api/v4/personal_access_tokens').set(asOwner);
    expect(own.status).toBe(200);
    expect(own.body.map((token: { id: number }) => token.id)).toEqual([deploy.id, ci.id]);
    expect(own.body[0]).not.toHaveProperty('token');

    const names = async (query: string, caller = asOwner) =>
      (await harness.api.get(`/api/v4/personal_access_tokens?${query}`).set(caller)).body.map((token: { name: string }) => token.name);
    expect(await names('search=RUNNER')).toEqual(['ci-runner']);
    expect(await names('revoked=true')).toEqual(['deploy']);
    expect(await names('state=active')).toEqual(['ci-runner']);
    expect(await names('state=inactive')).toEqual(['deploy']);
    expect(await names('created_after=2000-01-01&created_before=2999-01-01&revoked=False')).toEqual(['ci-runner']);
    expect(await names('last_used_after=2000-01-01')).toEqual([]);
    expect(await names(`user_id=${other.id}`, asAdmin)).toEqual(['someone-elses']);

    expect((await harness.api.get(`/api/v4/personal_access_tokens?user_id=${other.id}`).set(asOwner)).status).toBe(401);
    expect((await harness.api.get('/api/v4/personal_access_tokens?state=sleeping').set(asOwner)).body).toEqual({
      error: 'state does not have a valid value',
    });
    expect((await harness.api.get('/api/v4/personal_access_tokens').set(callerHeader({ kind: 'anonymous' }))).status).toBe(401);
  });

  it("shows one token, or the request's own with self; another user's is 404", async () => {
    const mine = await issue(owner.id, { name: 'shown' });
    const theirs = await issue(other.id);
    const shown = await harness.api.get(`/api/v4/personal_access_tokens/${mine.id}`).set(asOwner);
    expect(shown.body).toMatchObject({ id: mine.id, name: 'shown', user_id: owner.id, active: true, revoked: false });
    expect(shown.body).not.toHaveProperty('token');
    const self = await harness.api.get('/api/v4/personal_access_tokens/self').set(withToken(owner, mine.id));
    expect(self.body).toMatchObject({ id: mine.id, name: 'shown' });
    expect((await harness.api.get(`/api/v4/personal_access_tokens/${theirs.id}`).set(asOwner)).status).toBe(404);
    expect((await harness.api.get(`/api/v4/personal_access_tokens/${theirs.id}`).set(asAdmin)).status).toBe(200);
    expect((await harness.api.get('/api/v4/personal_access_tokens/999999').set(asOwner)).status).toBe(404);
  });

  it('revokes with 204: the token stops authenticating at once and the revocation is published', async () => {
    const token = await issue(owner.id);
    expect((await authenticate(token.token)).tokenId).toBe(token.id);
    const revoked = await harness.api.delete('/api/v4/personal_access_tokens/self').set(withToken(owner, token.id));
    expect(revoked.status).toBe(204);
    // The gateway that proxied the revocation forgets the owner's cached authentications before answering.
    expect(revoked.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(owner.id));
    await expect(authenticate(token.token)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(authenticate(token.token)).rejects.not.toBeInstanceOf(InvalidTokenError);
    expect((await harness.api.delete(`/api/v4/personal_access_tokens/${token.id}`).set(asOwner)).status).toBe(400);
    const events = await harness.outboxEvents('identity.personal_access_token.revoked');
    expect(events.map((event) => event.data)).toContainEqual({
      tokenId: token.id,
      userId: owner.id,
      username: owner.username,
      tokenName: 'token',
    });

    const theirs = await issue(other.id);
    expect((await harness.api.delete(`/api/v4/personal_access_tokens/${theirs.id}`).set(asOwner)).status).toBe(404);
    expect((await authenticate(theirs.token)).tokenId).toBe(theirs.id);
  });

  it('rotates: a new value with the same name and scopes, the old one revoked, a week of life by default', async () => {
    const old = await issue(owner.id, { name: 'rotating', scopes: ['read_api', 'read_user'] });
    const rotated = await harness.api.post(`/api/v4/personal_access_tokens/${old.id}/rotate`).set(asOwner);
    expect(rotated.status).toBe(200);
    expect(rotated.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(owner.id));
    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    expect(rotated.body).toMatchObject({ name: 'rotating', scopes: ['read_api', 'read_user'], expires_at: inAWeek, active: true });
    expect(rotated.body.token).toMatch(/^glpat-/);
    expect(rotated.body.id).not.toBe(old.id);
    await expect(authenticate(old.token)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await authenticate(rotated.body.token)).tokenId).toBe(rotated.body.id);
    // Issued and rotated tokens are published for audit, the successor naming the token it replaces.
    const created = (await harness.outboxEvents('identity.personal_access_token.created')).map((event) => event.data);
    const issued = { userId: owner.id, username: owner.username, tokenName: 'rotating', scopes: ['read_api', 'read_user'] };
    expect(created).toContainEqual({ ...issued, tokenId: old.id });
    expect(created).toContainEqual({ ...issued, tokenId: rotated.body.id, expiresAt: inAWeek, rotatedFromId: old.id });

    const again = await harness.api
      .post('/api/v4/personal_access_tokens/self/rotate')
      .set(withToken(owner, rotated.body.id))
      .send({ expires_at: '2999-12-31' });
    expect(again.body).toMatchObject({ name: 'rotating', expires_at: '2999-12-31' });
    const past = await harness.api
      .post(`/api/v4/personal_access_tokens/${again.body.id}/rotate`)
      .set(asOwner)
      .send({ expires_at: '2000-01-01' });
    expect(past.status).toBe(400);
  });

  it('lets users create their own tokens with only the scopes GitLab allows there', async () => {
    const created = await harness.api
      .post('/api/v4/user/personal_access_tokens')
      .set(asOwner)
      .send({ name: 'agent', scopes: ['k8s_proxy'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'agent', scopes: ['k8s_proxy'], user_id: owner.id });
    expect(created.body.token).toMatch(/^glpat-/);
    const tooMuch = await harness.api
      .post('/api/v4/user/personal_access_tokens')
      .set(asOwner)
      .send({ name: 'admin', scopes: ['api'] });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toEqual({ error: 'scopes[0] does not have a valid value' });
  });

  it("refuses an expired token with GitLab's invalid_token error", async () => {
    const token = await issue(owner.id, { expires_at: '2999-01-01' });
    await harness.sql('update personal_access_tokens set expires_at = current_date where id = $1', [token.id]);
    const refusal = authenticate(token.token);
    await expect(refusal).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(refusal).rejects.toThrow('Token has expired.');
  });

  it('keeps last_used_at coarsely: one write per token per interval, not one per request', async () => {
    const token = await issue(owner.id);
    await authenticate(token.token);
    const [first] = await harness.sql<{ last_used_at: Date }>('select last_used_at from personal_access_tokens where id = $1', [token.id]);
    expect(first?.last_used_at).toBeInstanceOf(Date);
    await authenticate(token.token);
    const [second] = await harness.sql<{ last_used_at: Date }>('select last_used_at from personal_access_tokens where id = $1', [token.id]);
    expect(second?.last_used_at).toEqual(first?.last_used_at);
    const shown = await harness.api.get(`/api/v4/personal_access_tokens/${token.id}`).set(asOwner);
    expect(new Date(shown.body.last_used_at)).toEqual(first?.last_used_at);
  });
});

describe('impersonation tokens', () => {
  it('lets administrators issue, list, show and revoke tokens that act as the user', async () => {
    const created = await harness.api
      .post(`/api/v4/users/${owner.id}/impersonation_tokens`)
      .set(asAdmin)
      .send({ name: 'support', scopes: ['api'], expires_at: '2999-01-01' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'support', scopes: ['api'], user_id: owner.id, impersonation: true, active: true });
    expect(created.body.token).toMatch(/^glpat-/);
    const acting = await authenticate(created.body.token);
    expect(acting.user).toMatchObject({ id: owner.id, username: owner.username });

    const listed = await harness.api.get(`/api/v4/users/${owner.id}/impersonation_tokens`).set(asAdmin);
    expect(listed.body.map((token: { id: number }) => token.id)).toEqual([created.body.id]);
    expect(listed.body[0]).not.toHaveProperty('token');
    // The user never sees the tokens that impersonate them.
    const own = await harness.api.get('/api/v4/personal_access_tokens').set(asOwner);
    expect(own.body.map((token: { id: number }) => token.id)).not.toContain(created.body.id);
    expect((await harness.api.get(`/api/v4/personal_access_tokens/${created.body.id}`).set(asOwner)).status).toBe(404);

    const shown = await harness.api.get(`/api/v4/users/${owner.id}/impersonation_tokens/${created.body.id}`).set(asAdmin);
    expect(shown.body).toMatchObject({ id: created.body.id, impersonation: true });
    const personal = await issue(owner.id);
    const notImpersonation = await harness.api.get(`/api/v4/users/${owner.id}/impersonation_tokens/${personal.id}`).set(asAdmin);
    expect(notImpersonation.status).toBe(404);
    expect(notImpersonation.body).toEqual({ message: '404 Impersonation Token Not Found' });
    expect((await harness.api.get(`/api/v4/users/${other.id}/impersonation_tokens/${created.body.id}`).set(asAdmin)).status).toBe(404);

    const revoked = await harness.api.delete(`/api/v4/users/${owner.id}/impersonation_tokens/${created.body.id}`).set(asAdmin);
    expect(revoked.status).toBe(204);
    expect(revoked.headers[AUTHENTICATION_CHANGED_HEADER]).toBe(String(owner.id));
    await expect(authenticate(created.body.token)).rejects.toBeInstanceOf(UnauthorizedError);
    const active = await harness.api.get(`/api/v4/users/${owner.id}/impersonation_tokens?state=active`).set(asAdmin);
    expect(active.body).toEqual([]);
    const inactive = await harness.api.get(`/api/v4/users/${owner.id}/impersonation_tokens?state=inactive`).set(asAdmin);
    expect(inactive.body).toMatchObject([{ id: created.body.id, revoked: true, active: false }]);
  });

  it('is for administrators only, and answers 404 for an unknown user and 400 for a bad request', async () => {
    const path = `/api/v4/users/${owner.id}/impersonation_tokens`;
    expect((await harness.api.get(path).set(asOwner)).status).toBe(403);
    expect(
      (
        await harness.api
          .post(path)
          .set(asOwner)
          .send({ name: 'x', scopes: ['api'] })
      ).status,
    ).toBe(403);
    expect((await harness.api.get(path).set(callerHeader({ kind: 'anonymous' }))).status).toBe(401);
    const unknown = await harness.api.get('/api/v4/users/999999/impersonation_tokens').set(asAdmin);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 User Not Found' });
    expect(
      (
        await harness.api
          .post(path)
          .set(asAdmin)
          .send({ scopes: ['api'] })
      ).body,
    ).toEqual({ error: 'name is missing' });
    expect((await harness.api.get(`${path}?state=sleeping`).set(asAdmin)).status).toBe(400);
  });
});
