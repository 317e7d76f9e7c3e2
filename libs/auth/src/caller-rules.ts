import { ForbiddenError, UnauthorizedError } from '@platform/errors';
import type { AuthenticatedCaller, Caller } from './caller-token.ts';

export function requireUser(caller: Caller): AuthenticatedCaller {
  if (caller.kind !== 'user') throw new UnauthorizedError();
  return caller;
}

export function requireAdmin(caller: Caller): AuthenticatedCaller {
  const user = requireUser(caller);
  if (!user.isAdmin) throw new ForbiddenError();
  return user;
}

/** GitLab's `api` scope grants everything a narrower scope would. */
export function hasScope(caller: AuthenticatedCaller, scope: string): boolean {
  return caller.scopes.includes('api') || caller.scopes.includes(scope);
}
