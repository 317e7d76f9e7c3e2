import { describe, expect, it } from '@jest/globals';
import { UnauthorizedError } from '@platform/errors';
import { signCaller, verifyCaller, type Caller } from './caller-token.ts';

const caller: Caller = { kind: 'user', userId: 7, username: 'ada', name: 'Ada', isAdmin: false, scopes: ['api'] };

describe('caller token', () => {
  it('round-trips a caller signed with the shared secret', () => {
    expect(verifyCaller(signCaller(caller, 's3cret'), 's3cret')).toEqual(caller);
  });

  it('refuses a header signed with another secret', () => {
    expect(() => verifyCaller(signCaller(caller, 'other'), 's3cret')).toThrow(UnauthorizedError);
  });

  it('refuses a header whose body was altered', () => {
    const [, signature] = signCaller(caller, 's3cret').split('.');
    const forgedBody = Buffer.from(JSON.stringify({ caller: { ...caller, isAdmin: true }, iat: Date.now() })).toString('base64url');
    expect(() => verifyCaller(`${forgedBody}.${signature}`, 's3cret')).toThrow('forged caller');
  });

  it('refuses a missing, malformed or stale header', () => {
    expect(() => verifyCaller(undefined, 's3cret')).toThrow(UnauthorizedError);
    expect(() => verifyCaller('garbage', 's3cret')).toThrow(UnauthorizedError);
    const old = signCaller(caller, 's3cret', Date.now() - 120_000);
    expect(() => verifyCaller(old, 's3cret')).toThrow('expired caller');
  });
});
