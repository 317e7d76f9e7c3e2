import type { ClientRequest, RequestListener } from 'node:http';
import request from 'supertest';
import { CALLER_HEADER, signCaller, type AuthenticatedCaller, type Caller } from '@platform/auth';
import { TEST_INTERNAL_SECRET } from './test-environment.ts';

export function adminCaller(userId = 1, username = 'root'): AuthenticatedCaller {
  return { kind: 'user', userId, username, name: 'Administrator', isAdmin: true, scopes: ['api', 'sudo'] };
}

export function userCaller(userId: number, username: string): AuthenticatedCaller {
  return { kind: 'user', userId, username, name: username, isAdmin: false, scopes: ['api'] };
}

/** Marks a caller that `serviceRequest` signs for the request it ends up on; no service accepts it as is. */
const UNSIGNED_PREFIX = 'unsigned-test-caller:';

/**
 * The header the gateway would add, for calling a service directly in a test. A signed caller is
 * bound to one method and path and lives a few seconds, so the header is signed only when the
 * request is sent, by a client made with `serviceRequest`.
 */
export function callerHeader(caller: Caller): Record<string, string> {
  return { [CALLER_HEADER]: `${UNSIGNED_PREFIX}${Buffer.from(JSON.stringify(caller)).toString('base64url')}` };
}

/**
 * A supertest client for a service (its base URL, or its app in-process) that signs each
 * `callerHeader` for the request it is sent with, with `TEST_INTERNAL_SECRET` unless told otherwise.
 */
export function serviceRequest(target: string | RequestListener, options: { internalSecret?: string } = {}) {
  return request.agent(target).on('request', (sent: { method: string; url: string; req: ClientRequest }) => {
    const marked = sent.req.getHeader(CALLER_HEADER);
    if (typeof marked !== 'string' || !marked.startsWith(UNSIGNED_PREFIX)) return;
    const caller = JSON.parse(Buffer.from(marked.slice(UNSIGNED_PREFIX.length), 'base64url').toString('utf8')) as Caller;
    sent.req.setHeader(
      CALLER_HEADER,
      signCaller(caller, options.internalSecret ?? TEST_INTERNAL_SECRET, { method: sent.method, path: new URL(sent.url).pathname }),
    );
  });
}
