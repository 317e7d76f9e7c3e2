import { ForbiddenError, UnauthorizedError } from '@platform/errors';
import type { AuthenticatedCaller, Caller } from './caller-token.ts';

/**
 * The signed-in user; 401 for anybody else, but 403 for a deploy token: it authenticated, and a
 * registry's writes it may not do (deploy tokens never act as a user) are forbidden, as GitLab says.
 */
export function requireUser(caller: Caller): AuthenticatedCaller {
  if (caller.kind !== 'user') throw caller.deployToken ? new ForbiddenError() : new UnauthorizedError();
  return caller;
}

export function requireAdmin(caller: Caller): AuthenticatedCaller {
  const user = requireUser(caller);
  if (!user.isAdmin) throw new ForbiddenError();
  return user;
}

/**
 * Whether a user is an administrator now, asked of the service that owns users. The signed
 * caller says what was true when the gateway authenticated the token, possibly from its cache.
 */
export interface AdministratorCheck {
  isAdministrator(caller: AuthenticatedCaller): Promise<boolean>;
}

/**
 * An administrator by the signed caller and still one by `administrators`: a demoted or blocked
 * administrator is refused at once, whatever the gateway's cache still says.
 */
export async function requireCurrentAdmin(caller: Caller, administrators: AdministratorCheck): Promise<AuthenticatedCaller> {
  const admin = requireAdmin(caller);
  if (!(await administrators.isAdministrator(admin))) throw new ForbiddenError();
  return admin;
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
