import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { UnauthorizedError } from '@platform/errors';
import { CALLER_CLOCK_SKEW_MS, CALLER_DEFAULT_VALIDITY_MS, signCaller, verifyCaller, type Caller } from './caller-token.ts';

const caller: Caller = { kind: 'user', userId: 7, username: 'ada', name: 'Ada', isAdmin: false, scopes: ['api'] };
const request = { method: 'GET', path: '/api/v4/user' };

describe('caller token', () => {
  it('round-trips a caller signed with the shared secret', () => {
    expect(verifyCaller(signCaller(caller, 's3cret', request), 's3cret', request)).toEqual(caller);
  });

  it('refuses a header signed with another secret', () => {
    expect(() => verifyCaller(signCaller(caller, 'other', request), 's3cret', request)).toThrow(UnauthorizedError);
  });

  it('refuses a header whose body was altered', () => {
    const [, signature] = signCaller(caller, 's3cret', request).split('.');
    const forgedBody = Buffer.from(JSON.stringify({ caller: { ...caller, isAdmin: true }, iat: Date.now(), ...request })).toString(
      'base64url',
    );
    expect(() => verifyCaller(`${forgedBody}.${signature}`, 's3cret', request)).toThrow('forged caller');
  });

  it('refuses a missing, malformed or stale header', () => {
    expect(() => verifyCaller(undefined, 's3cret', request)).toThrow(UnauthorizedError);
    expect(() => verifyCaller('garbage', 's3cret', request)).toThrow(UnauthorizedError);
    const old = signCaller(caller, 's3cret', request, { now: Date.now() - 120_000 });
    expect(() => verifyCaller(old, 's3cret', request)).toThrow('expired caller');
  });

  it('is short-lived: valid for the default validity and the clock skew, and not a millisecond longer', () => {
    const issued = 1_000_000;
    const header = signCaller(caller, 's3cret', request, { now: issued });
    const lastValid = issued + CALLER_DEFAULT_VALIDITY_MS + CALLER_CLOCK_SKEW_MS;
    expect(verifyCaller(header, 's3cret', request, { now: lastValid })).toEqual(caller);
    expect(() => verifyCaller(header, 's3cret', request, { now: lastValid + 1 })).toThrow('expired caller');
  });

  it('stays valid as long as its signer waits for the answer, however long the request queued', () => {
    const issued = 1_000_000;
    const header = signCaller(caller, 's3cret', request, { now: issued, validForMs: 62_000 });
    expect(verifyCaller(header, 's3cret', request, { now: issued + 62_000 })).toEqual(caller);
    expect(() => verifyCaller(header, 's3cret', request, { now: issued + 62_000 + CALLER_CLOCK_SKEW_MS + 1 })).toThrow('expired caller');
    const brief = signCaller(caller, 's3cret', request, { now: issued, validForMs: 1000 });
    expect(() => verifyCaller(brief, 's3cret', request, { now: issued + 1000 + CALLER_CLOCK_SKEW_MS + 1 })).toThrow('expired caller');
  });

  it('refuses a header with anything after its signature', () => {
    const header = signCaller(caller, 's3cret', request);
    expect(() => verifyCaller(`${header}.anything`, 's3cret', request)).toThrow('malformed caller');
    expect(() => verifyCaller(`${header}.`, 's3cret', request)).toThrow('malformed caller');
    expect(() => verifyCaller(`.${header}`, 's3cret', request)).toThrow('malformed caller');
  });

  it('refuses a payload without a validity', () => {
    const body = Buffer.from(JSON.stringify({ caller, iat: Date.now(), ...request })).toString('base64url');
    const signature = createHmac('sha256', 's3cret').update(body).digest('base64url');
    expect(() => verifyCaller(`${body}.${signature}`, 's3cret', request)).toThrow('malformed caller');
  });

  it('refuses an issue time in the future beyond a small clock skew', () => {
    const now = 1_000_000;
    expect(verifyCaller(signCaller(caller, 's3cret', request, { now: now + CALLER_CLOCK_SKEW_MS }), 's3cret', request, { now })).toEqual(
      caller,
    );
    const future = signCaller(caller, 's3cret', request, { now: now + CALLER_CLOCK_SKEW_MS + 1 });
    expect(() => verifyCaller(future, 's3cret', request, { now })).toThrow('caller issued in the future');
    const farFuture = signCaller(caller, 's3cret', request, { now: now + 365 * 24 * 3600 * 1000 });
    expect(() => verifyCaller(farFuture, 's3cret', request, { now })).toThrow(UnauthorizedError);
  });

  it('is bound to the method and path it was signed for, whatever the query', () => {
    const header = signCaller(caller, 's3cret', { method: 'get', path: '/api/v4/users/7?with_custom_attributes=true' });
    expect(verifyCaller(header, 's3cret', { method: 'GET', path: '/api/v4/users/7' })).toEqual(caller);
    expect(() => verifyCaller(header, 's3cret', { method: 'DELETE', path: '/api/v4/users/7' })).toThrow(
      'caller signed for another request',
    );
    expect(() => verifyCaller(header, 's3cret', { method: 'GET', path: '/api/v4/users/8' })).toThrow('caller signed for another request');
  });
});
