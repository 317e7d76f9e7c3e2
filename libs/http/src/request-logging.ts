import { randomUUID } from 'node:crypto';
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { withRequestId, type Logger } from '@platform/logger';

/** Query parameters that carry credentials, as GitLab accepts them; never logged. */
const SECRET_PARAMETERS = /([?&](?:private_token|access_token|job_token|token)=)[^&]*/gi;

const writeHead: (this: ServerResponse, statusCode: number, reason?: string, headers?: OutgoingHttpHeaders) => ServerResponse =
  ServerResponse.prototype.writeHead;

/**
 * A response's `writeHead` that writes its request's id with the head. A head given whole (the
 * gateway's proxied answers) takes the id into the headers object given (each caller's own), so
 * Node writes them as given: an id set ahead with `setHeader` would send every header of the answer
 * through `setHeader` again (a validation and ~1.3 KB per proxied request). Express's answers,
 * whose headers are set one by one, get it with `setHeader` as before.
 */
function writeHeadWithRequestId(this: ServerResponse, statusCode: number, reason?: unknown, headers?: unknown): ServerResponse {
  const id = this.req.headers['x-request-id'] as string;
  const given = typeof reason === 'string' ? headers : reason;
  if (typeof given === 'object' && given !== null && !Array.isArray(given)) (given as Record<string, unknown>)['x-request-id'] = id;
  else this.setHeader('X-Request-Id', id);
  return writeHead.call(this, statusCode, reason as string | undefined, headers as OutgoingHttpHeaders | undefined);
}

/**
 * A step in front of a request's handling, on Node's request and response: express mounts it as
 * a middleware as it is, and the gateway runs it on its own listener, before express.
 */
export type RequestStep = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * Gives every request an id (the caller's `X-Request-Id`, or a new one), echoes it with the
 * answer's head, stamps it on every line logged while handling the request, and logs one line per
 * finished request at info level. Cheaper than a child logger per request, which matters on the
 * hot path; health probes are not logged. Runs at the app's root, where no router has trimmed
 * the URL yet: the URL it reads is the request's own.
 */
export function requestLogging(logger: Logger): RequestStep {
  return (req, res, next) => {
    const url = req.url ?? '/';
    const id = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
    req.headers['x-request-id'] = id;
    res.writeHead = writeHeadWithRequestId as typeof res.writeHead;
    if (url.startsWith('/-/') || !logger.isLevelEnabled('info')) {
      withRequestId(id, next);
      return;
    }
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      logger.info(
        {
          reqId: id,
          method: req.method,
          url: url.replace(SECRET_PARAMETERS, '$1[redacted]'),
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request completed',
      );
    });
    withRequestId(id, next);
  };
}
