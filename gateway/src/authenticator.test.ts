import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import type { IdentityServiceClient } from '@platform/proto/identity/v1';
import { Authenticator, basicCredentialsOf, deployTokenCredentialsOf, credentialsOf } from './authenticator.ts';

function requestWith(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

/** An identity client that answers from a table and counts its calls. */
function identityAnswering(users: Record<string, { id: number; username: string }>) {
  const calls: Array<{ token: string; sudo: string }> = [];
  const deadlines: Date[] = [];
  /** While true, identity cannot be reached (gRPC UNAVAILABLE). */
  const state = { down: false };
  const client = {
    authenticate(
      request: { token: string; sudo: string },
      _metadata: unknown,
      options: { deadline: Date },
      callback: (error: unknown, response: unknown) => void,
    ) {
      calls.push(request);
      deadlines.push(options.deadline);
      const user = users[request.sudo || request.token];
      setImmediate(() =>
        state.down
          ? callback({ code: 14, details: 'connection refused' }, undefined)
          : user
            ? callback(null, {
                user: { ...user, name: user.username, isAdmin: false },
                scopes: ['api'],
                impersonatorId: request.sudo ? 1 : 0,
              })
            : callback({ code: 16, details: 'Unauthorized' }, undefined),
      );
    },
  };
  return { client: client as unknown as IdentityServiceClient, calls, deadlines, state };
}

describe('credentialsOf', () => {
  const query = (search = '') => new URLSearchParams(search);

  it('reads the token from PRIVATE-TOKEN, a Bearer header, or the query string', () => {
    expect(credentialsOf(requestWith({ 'private-token': 'a' }), query())).toEqual({ token: 'a' });
    expect(credentialsOf(requestWith({ authorization: 'Bearer b' }), query())).toEqual({ token: 'b' });
    expect(credentialsOf(requestWith({}), query('?private_token=c'))).toEqual({ token: 'c' });
    expect(credentialsOf(requestWith({}), query('?access_token=d'))).toEqual({ token: 'd' });
    expect(credentialsOf(requestWith({ authorization: 'Basic x' }), query())).toEqual({});
  });

  it('reads sudo from the Sudo header or the sudo parameter', () => {
    expect(credentialsOf(requestWith({ 'private-token': 'a', sudo: 'ada' }), query())).toEqual({ token: 'a', sudo: 'ada' });
    expect(credentialsOf(requestWith({ 'private-token': 'a' }), query('?sudo=7'))).toEqual({ token: 'a', sudo: '7' });
  });
});

describe('basicCredentialsOf', () => {
  const basic = (userAndPassword: string) => requestWith({ authorization: `Basic ${Buffer.from(userAndPassword).toString('base64')}` });

  it('takes the password as the token, and the username for deploy tokens', () => {
    expect(basicCredentialsOf(basic('oauth2:glpat-secret'))).toEqual({ token: 'glpat-secret', username: 'oauth2' });
    expect(basicCredentialsOf(basic('ada:with:colons'))).toEqual({ token: 'with:colons', username: 'ada' });
  });

  it("finds a registry's deploy token in the Deploy-Token header, the bearer token or the Basic password", () => {
    expect(deployTokenCredentialsOf(requestWith({ 'deploy-token': 'gldt-a' }))).toEqual({ token: 'gldt-a' });
    expect(deployTokenCredentialsOf(requestWith({ authorization: 'Bearer gldt-b' }))).toEqual({ token: 'gldt-b' });
    expect(deployTokenCredentialsOf(basic('gitlab+deploy-token-1:gldt-c'))).toEqual({ token: 'gldt-c', username: 'gitlab+deploy-token-1' });
    expect(deployTokenCredentialsOf(requestWith({ 'private-token': 'gldt-d' }))).toEqual({});
  });

  it('finds no token without a password or Basic credentials', () => {
    expect(basicCredentialsOf(basic('ada:'))).toEqual({});
    expect(basicCredentialsOf(basic('ada'))).toEqual({});
    expect(basicCredentialsOf(requestWith({ authorization: 'Bearer x' }))).toEqual({});
    expect(basicCredentialsOf(requestWith({}))).toEqual({});
  });
});

describe('Authenticator', () => {
  it('asks identity once per token and sudo target while the answer is fresh', async () => {
    const { client, calls } = identityAnswering({ 'token-1': { id: 2, username: 'ada' }, grace: { id: 3, username: 'grace' } });
    const authenticator = new Authenticator({ client, ttlMs: 60_000 });
    expect(await authenticator.authenticate('token-1', undefined)).toMatchObject({ kind: 'user', userId: 2, username: 'ada' });
    await authenticator.authenticate('token-1', undefined);
    expect(calls).toHaveLength(1);
    expect(await authenticator.authenticate('token-1', 'grace')).toMatchObject({ userId: 3, impersonatorId: 1 });
    expect(calls).toHaveLength(2);
  });

  it('asks every time when caching is off, and does not cache refusals', async () => {
    const { client, calls } = identityAnswering({ 'token-1': { id: 2, username: 'ada' } });
    const uncached = new Authenticator({ client, ttlMs: 0 });
    await uncached.authenticate('token-1', undefined);
    await uncached.authenticate('token-1', undefined);
    expect(calls).toHaveLength(2);
    const cached = new Authenticator({ client, ttlMs: 60_000 });
    await expect(cached.authenticate('wrong', undefined)).rejects.toThrow('Unauthorized');
    await expect(cached.authenticate('wrong', undefined)).rejects.toThrow('Unauthorized');
    expect(calls.filter((call) => call.token === 'wrong')).toHaveLength(2);
  });
});

describe('Authenticator while identity changes or is unreachable', () => {
  const users = () => ({ 'token-1': { id: 2, username: 'ada' } });
  function clockAt(start: number) {
    const clock = { now: start };
    return { clock, now: () => clock.now };
  }

  it('keeps serving a recent answer while identity is unreachable, for a bounded time', async () => {
    const identity = identityAnswering(users());
    const { clock, now } = clockAt(Date.UTC(2026, 0, 1, 12));
    const authenticator = new Authenticator({ client: identity.client, ttlMs: 10_000, staleMs: 60_000, invalidationLive: () => true, now });
    await authenticator.authenticate('token-1', undefined);
    identity.state.down = true;
    clock.now += 30_000;
    expect(await authenticator.authenticate('token-1', undefined)).toMatchObject({ userId: 2 });
    const callsWhileDown = identity.calls.length;
    // The next requests within a second do not wait for identity again.
    await authenticator.authenticate('token-1', undefined);
    expect(identity.calls).toHaveLength(callsWhileDown);
    clock.now += 41_000;
    await expect(authenticator.authenticate('token-1', undefined)).rejects.toThrow('UNAVAILABLE');
  });

  it('never serves an answer identity has since refused', async () => {
    const table: Record<string, { id: number; username: string }> = users();
    const identity = identityAnswering(table);
    const { clock, now } = clockAt(Date.UTC(2026, 0, 1, 12));
    const authenticator = new Authenticator({ client: identity.client, ttlMs: 10_000, invalidationLive: () => true, now });
    await authenticator.authenticate('token-1', undefined);
    delete table['token-1'];
    clock.now += 11_000;
    await expect(authenticator.authenticate('token-1', undefined)).rejects.toThrow('Unauthorized');
    identity.state.down = true;
    await expect(authenticator.authenticate('token-1', undefined)).rejects.toThrow('UNAVAILABLE');
  });

  it("drops a user's answers when told, so a block or revocation takes effect at once", async () => {
    const table: Record<string, { id: number; username: string }> = users();
    const identity = identityAnswering(table);
    const authenticator = new Authenticator({ client: identity.client, ttlMs: 600_000, invalidationLive: () => true });
    await authenticator.authenticate('token-1', undefined);
    delete table['token-1'];
    expect(await authenticator.authenticate('token-1', undefined)).toMatchObject({ userId: 2 });
    authenticator.forgetUser(2);
    await expect(authenticator.authenticate('token-1', undefined)).rejects.toThrow('Unauthorized');
  });

  it('does not keep an answer identity gave before the user was forgotten', async () => {
    const table: Record<string, { id: number; username: string }> = users();
    const identity = identityAnswering(table);
    const authenticator = new Authenticator({ client: identity.client, ttlMs: 600_000, invalidationLive: () => true });
    // Identity answered, the token was revoked, and the gateway was told before the answer arrived.
    const answered = authenticator.authenticate('token-1', undefined);
    delete table['token-1'];
    authenticator.forgetUser(2);
    expect(await answered).toMatchObject({ userId: 2 });
    await expect(authenticator.authenticate('token-1', undefined)).rejects.toThrow('Unauthorized');
  });

  it('gives identity a deadline, shorter when a recent answer can serve meanwhile', async () => {
    const identity = identityAnswering(users());
    const authenticator = new Authenticator({ client: identity.client, ttlMs: 1, invalidationLive: () => true });
    const before = Date.now();
    await authenticator.authenticate('token-1', undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await authenticator.authenticate('token-1', undefined);
    const [first, revalidation] = identity.deadlines.map((deadline) => deadline.getTime() - before);
    expect(first).toBeGreaterThanOrEqual(2000);
    expect(first).toBeLessThan(2100);
    expect(revalidation).toBeLessThan(600);
  });

  it('trusts an answer for at most a second while change events do not reach it', async () => {
    const identity = identityAnswering(users());
    const { clock, now } = clockAt(Date.UTC(2026, 0, 1, 12));
    const authenticator = new Authenticator({ client: identity.client, ttlMs: 10_000, invalidationLive: () => false, now });
    await authenticator.authenticate('token-1', undefined);
    clock.now += 1000;
    await authenticator.authenticate('token-1', undefined);
    expect(identity.calls).toHaveLength(2);
  });

  it('asks again at UTC midnight, when token expiry dates turn over', async () => {
    const identity = identityAnswering(users());
    const { clock, now } = clockAt(Date.UTC(2026, 0, 1, 23, 59, 59, 500));
    const authenticator = new Authenticator({ client: identity.client, ttlMs: 10_000, invalidationLive: () => true, now });
    await authenticator.authenticate('token-1', undefined);
    clock.now += 600;
    identity.state.down = true;
    await expect(authenticator.authenticate('token-1', undefined)).rejects.toThrow('UNAVAILABLE');
  });
});
