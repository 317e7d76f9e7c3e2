import type { Request } from 'express';
import type { Caller } from '@platform/auth';
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
