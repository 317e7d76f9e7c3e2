import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { withRequestId, type Logger } from '@platform/logger';

/** Query parameters that carry credentials, as GitLab accepts them; never logged. */
const SECRET_PARAMETERS = /([?&](?:private_token|access_token|job_token|token)=)[^&]*/gi;

/**
 * Gives every request an id (the caller's `X-Request-Id`, or a new one), echoes it, stamps it on
 * every line logged while handling the request, and logs one line per finished request at info level. Cheaper than a child logger per request, which
 * matters on the hot path; health probes are not logged.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const id = req.get('x-request-id') ?? randomUUID();
    req.headers['x-request-id'] = id;
    res.setHeader('X-Request-Id', id);
    if (req.path.startsWith('/-/') || !logger.isLevelEnabled('info')) {
      withRequestId(id, next);
      return;
    }
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      logger.info(
        {
          reqId: id,
          method: req.method,
          url: req.originalUrl.replace(SECRET_PARAMETERS, '$1[redacted]'),
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request completed',
      );
    });
    withRequestId(id, next);
  };
}
