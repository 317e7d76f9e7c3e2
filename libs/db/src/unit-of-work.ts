import { RequestContext } from '@mikro-orm/core';
import type { RequestHandler } from 'express';
import type { Orm } from './orm.ts';

/** One identity map per HTTP request. */
export function requestScope(orm: Orm): RequestHandler {
  return (_req, _res, next) => {
    RequestContext.create(orm.em, next);
  };
}

/** One identity map per gRPC call or Kafka message. */
export function inUnitOfWork<Result>(orm: Orm, work: () => Promise<Result>): Promise<Result> {
  return RequestContext.create(orm.em, work);
}
