import type { ErrorRequestHandler } from 'express';
import type { Logger } from '@platform/logger';
import {
  ConflictError,
  FieldValidationError,
  ForbiddenError,
  InputError,
  InsufficientScopeError,
  isConnectionFault,
  NotFoundError,
  NotModifiedError,
  UnauthorizedError,
  UnavailableError,
} from '@platform/errors';

export interface HttpError {
  status: number;
  body: unknown;
}

/** The one table from domain errors to HTTP statuses and GitLab's error bodies. */
export function errorToHttp(error: unknown): HttpError | undefined {
  if (error instanceof InputError) return { status: 400, body: { error: error.message } };
  if (error instanceof FieldValidationError) return { status: 400, body: { message: error.fields } };
  if (error instanceof NotFoundError) return { status: 404, body: { message: `404 ${error.message}` } };
  if (error instanceof UnauthorizedError) return { status: 401, body: { message: '401 Unauthorized' } };
  if (error instanceof InsufficientScopeError) {
    const body = { error: 'insufficient_scope', error_description: error.message, scope: error.scopes.join(' ') };
    return { status: 403, body };
  }
  if (error instanceof ForbiddenError) {
    const message = error.message === 'Forbidden' ? '403 Forbidden' : `403 Forbidden - ${error.message}`;
    return { status: 403, body: { message } };
  }
  if (error instanceof ConflictError) return { status: 409, body: { message: error.message } };
  if (error instanceof NotModifiedError) return { status: 304, body: undefined };
  if (error instanceof UnavailableError || isConnectionFault(error)) return { status: 503, body: { message: '503 Service Unavailable' } };
  return bodyParserError(error);
}

/** express.json() reports unreadable bodies with a `type`; they are the client's fault. */
function bodyParserError(error: unknown): HttpError | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return { status: 400, body: { error: 'The request body is not valid JSON' } };
  if (type === 'entity.too.large') return { status: 413, body: { message: '413 Request Entity Too Large' } };
  if (typeof type === 'string' && type.startsWith('encoding.')) return { status: 415, body: { message: '415 Unsupported Media Type' } };
  return undefined;
}

export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const mapped = errorToHttp(error);
    if (mapped) {
      if (mapped.body === undefined) res.status(mapped.status).end();
      else res.status(mapped.status).json(mapped.body);
      return;
    }
    logger.error({ err: error, method: req.method, url: req.originalUrl }, 'unhandled error');
    res.status(500).json({ message: '500 Internal Server Error' });
  };
}
