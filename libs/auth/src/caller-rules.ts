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

/** Who did something, as domain events record it; an impersonating administrator is kept. */
export interface Actor {
  id: number;
  username: string;
  name: string;
  ip?: string;
  impersonatorId?: number;
}

export function actorOf(caller: AuthenticatedCaller): Actor {
  return {
    id: caller.userId,
    username: caller.username,
    name: caller.name,
    ...(caller.ip ? { ip: caller.ip } : {}),
    ...(caller.impersonatorId ? { impersonatorId: caller.impersonatorId } : {}),
  };
}
