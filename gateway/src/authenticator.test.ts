import { describe, expect, it } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import type { IdentityServiceClient } from '@platform/proto/identity/v1';
import { Authenticator, credentialsOf } from './authenticator.ts';

function requestWith(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

/** An identity client that answers from a table and counts its calls. */
function identityAnswering(users: Record<string, { id: number; username: string }>) {
  const calls: Array<{ token: string; sudo: string }> = [];
  const client = {
    authenticate(
      request: { token: string; sudo: string },
      _metadata: unknown,
      _options: unknown,
      callback: (error: unknown, response: unknown) => void,
    ) {
      calls.push(request);
      const user = users[request.sudo || request.token];
      setImmediate(() =>
        user
          ? callback(null, {
              user: { ...user, name: user.username, isAdmin: false },
              scopes: ['api'],
              impersonatorId: request.sudo ? 1 : 0,
            })
          : callback({ code: 16, details: 'Unauthorized' }, undefined),
      );
    },
  };
  return { client: client as unknown as IdentityServiceClient, calls };
}

describe('credentialsOf', () => {
  const url = (query = '') => new URL(`http://gateway/api/v4/user${query}`);

  it('reads the token from PRIVATE-TOKEN, a Bearer header, or the query string', () => {
    expect(credentialsOf(requestWith({ 'private-token': 'a' }), url())).toEqual({ token: 'a' });
    expect(credentialsOf(requestWith({ authorization: 'Bearer b' }), url())).toEqual({ token: 'b' });
    expect(credentialsOf(requestWith({}), url('?private_token=c'))).toEqual({ token: 'c' });
    expect(credentialsOf(requestWith({}), url('?access_token=d'))).toEqual({ token: 'd' });
    expect(credentialsOf(requestWith({ authorization: 'Basic x' }), url())).toEqual({});
  });

  it('reads sudo from the Sudo header or the sudo parameter', () => {
    expect(credentialsOf(requestWith({ 'private-token': 'a', sudo: 'ada' }), url())).toEqual({ token: 'a', sudo: 'ada' });
    expect(credentialsOf(requestWith({ 'private-token': 'a' }), url('?sudo=7'))).toEqual({ token: 'a', sudo: '7' });
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
