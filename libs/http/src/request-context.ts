import type { NextFunction, Request, RequestHandler, Response } from 'express';
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

/** Lets route handlers be async functions whose rejections reach the error middleware. */
export function asyncHandler(handler: (req: Request, res: Response, next: NextFunction) => Promise<unknown>): RequestHandler {
  return (req, res, next) => {
    handler(req, res, next).catch(next);
  };
}
