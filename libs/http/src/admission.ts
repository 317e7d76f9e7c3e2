import type { RequestHandler } from 'express';
import pLimit from 'p-limit';

/**
 * API requests a service works on at once: a few per database connection (pools hold 10), so
 * that the database stays busy while a request is between statements.
 */
export const REQUESTS_IN_PROGRESS = 16;

/**
 * At most `limit` requests are worked on at once; the others wait in arrival order holding only
 * their socket, and one whose client gave up while it waited is never started. Under a load
 * beyond what the service can serve, memory then stays bounded by the requests in progress
 * (each holds its unit of work, rows and half-built response) instead of growing with the queue,
 * and no work is spent on answers nobody will read.
 */
export function admission(limit = REQUESTS_IN_PROGRESS): RequestHandler & { readonly inProgress: number; readonly waiting: number } {
  const admit = pLimit(limit);
  const handler: RequestHandler = (req, res, next) => {
    void admit(
      () =>
        new Promise<void>((resolve) => {
          if (res.closed || req.socket.destroyed) {
            resolve();
            return;
          }
          res.once('close', () => resolve());
          next();
        }),
    );
  };
  return Object.defineProperties(handler, {
    inProgress: { get: () => admit.activeCount },
    waiting: { get: () => admit.pendingCount },
  }) as RequestHandler & { readonly inProgress: number; readonly waiting: number };
}
