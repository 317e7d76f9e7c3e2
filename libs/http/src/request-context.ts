import type { Express, Request } from 'express';
import type { AdministratorCheck, Caller } from '@platform/auth';
import { UnauthorizedError } from '@platform/errors';

const callers = new WeakMap<Request, Caller>();

export function setCaller(req: Request, caller: Caller): void {
  callers.set(req, caller);
}

/** The verified caller of a request that passed the gateway's signature check. */
export function callerOf(req: Request): Caller {
  const caller = callers.get(req);
  if (!caller) throw new UnauthorizedError();
  return caller;
}

const administratorChecks = new WeakMap<Express, AdministratorCheck>();

/** Who confirms, for the app's administrator-only routes, that a caller is still an administrator. */
export function setAdministratorCheck(app: Express, check: AdministratorCheck): void {
  administratorChecks.set(app, check);
}

export function administratorCheckOf(req: Request): AdministratorCheck {
  const check = administratorChecks.get(req.app as Express);
  if (!check) throw new Error('an administrator-only route is served by an app without an administrator check');
  return check;
}
