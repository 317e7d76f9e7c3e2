import type { ClientRequest } from 'node:http';
import request from 'supertest';
import { CALLER_HEADER, signCaller, type AuthenticatedCaller, type Caller } from '@platform/auth';
import { TEST_INTERNAL_SECRET } from './test-environment.ts';

export function adminCaller(userId = 1, username = 'root'): AuthenticatedCaller {
  return { kind: 'user', userId, username, name: 'Administrator', isAdmin: true, scopes: ['api', 'sudo'] };
}

export function userCaller(userId: number, username: string): AuthenticatedCaller {
  return { kind: 'user', userId, username, name: username, isAdmin: false, scopes: ['api'] };
}

/** Marks a caller that is signed as its request is sent; no service accepts it as is. */
const UNSIGNED_PREFIX = 'unsigned-test-caller:';

/**
 * The header the gateway would add, for calling a service directly in a test with supertest. A
 * signed caller is bound to one method and path and lives a few seconds, so the header is signed
 * (with `internalSecret`, the test secret by default) only as the request is sent.
 */
export function callerHeader(caller: Caller, internalSecret: string = TEST_INTERNAL_SECRET): Record<string, string> {
  const marked = Buffer.from(JSON.stringify({ caller, internalSecret })).toString('base64url');
  return { [CALLER_HEADER]: `${UNSIGNED_PREFIX}${marked}` };
}

interface SentTest {
  method: string;
  url: string;
  request(): ClientRequest;
}

// supertest builds the outgoing request in `request()`, after every header was set: the caller is signed there.
const testPrototype = (request as unknown as { Test: { prototype: SentTest } }).Test.prototype;
const buildRequest = testPrototype.request;
testPrototype.request = function signCallerHeader(this: SentTest): ClientRequest {
  const outgoing = buildRequest.call(this);
  const marked = outgoing.getHeader(CALLER_HEADER);
  if (typeof marked === 'string' && marked.startsWith(UNSIGNED_PREFIX)) {
    const { caller, internalSecret } = JSON.parse(Buffer.from(marked.slice(UNSIGNED_PREFIX.length), 'base64url').toString('utf8')) as {
      caller: Caller;
      internalSecret: string;
    };
    outgoing.setHeader(CALLER_HEADER, signCaller(caller, internalSecret, { method: this.method, path: new URL(this.url).pathname }));
  }
  return outgoing;
};
