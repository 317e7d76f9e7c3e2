import type { Request, RequestHandler, Response } from 'express';

/**
 * API requests a service works on at once: a few per database connection (pools hold 10), so
 * that the database stays busy while a request is between statements.
 */
export const REQUESTS_IN_PROGRESS = 16;

interface WaitingRequest {
  req: Request;
  res: Response;
  next: () => void;
}

/**
 * At most `limit` requests are worked on at once; the others wait in arrival order holding only
 * their socket, and one whose client gave up while it waited is never started. Under a load
 * beyond what the service can serve, memory then stays bounded by the requests in progress
 * (each holds its unit of work, rows and half-built response) instead of growing with the queue,
 * and no work is spent on answers nobody will read. A request that finds a free place and nobody
 * waiting starts at once, with no promise or queue entry.
 */
export function admission(limit = REQUESTS_IN_PROGRESS): RequestHandler & { readonly inProgress: number; readonly waiting: number } {
  let inProgress = 0;
  // Arrival order; `first` is the next to start, so that starting one never copies the queue.
  let queue: Array<WaitingRequest | undefined> = [];
  let first = 0;
  const finished = () => {
    inProgress--;
    startWaiting();
  };
  const start = ({ req, res, next }: WaitingRequest) => {
    if (res.closed || req.socket.destroyed) return;
    inProgress++;
    res.once('close', finished);
    next();
  };
  const startWaiting = () => {
    while (inProgress < limit && first < queue.length) {
      const waiting = queue[first]!;
      queue[first++] = undefined;
      if (first === queue.length) {
        queue = [];
        first = 0;
      }
      start(waiting);
    }
  };
  const handler: RequestHandler = (req, res, next) => {
    if (inProgress < limit && first === queue.length) start({ req, res, next });
    else queue.push({ req, res, next });
  };
  return Object.defineProperties(handler, {
    inProgress: { get: () => inProgress },
    waiting: { get: () => queue.length - first },
  }) as RequestHandler & { readonly inProgress: number; readonly waiting: number };
}
