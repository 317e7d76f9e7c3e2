import { CALLER_HEADER, signCaller, type AuthenticatedCaller, type Caller } from '@platform/auth';
import { TEST_INTERNAL_SECRET } from './test-environment.ts';

export function adminCaller(userId = 1, username = 'root'): AuthenticatedCaller {
  return { kind: 'user', userId, username, name: 'Administrator', isAdmin: true, scopes: ['api', 'sudo'] };
}

export function userCaller(userId: number, username: string): AuthenticatedCaller {
  return { kind: 'user', userId, username, name: username, isAdmin: false, scopes: ['api'] };
}

/** The header the gateway would add, for calling a service directly in a test. */
export function callerHeader(caller: Caller): Record<string, string> {
  return { [CALLER_HEADER]: signCaller(caller, TEST_INTERNAL_SECRET) };
}
