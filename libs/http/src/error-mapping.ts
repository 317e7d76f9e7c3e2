import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler } from 'express';
import type { Logger } from '@platform/logger';
import {
  ConflictError,
  FieldValidationError,
  ForbiddenError,
  InputError,
  InvalidTokenError,
  InsufficientScopeError,
  isConnectionFault,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  NotModifiedError,
  RefusedError,
  InvalidRecordError,
  UnprocessableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnavailableError,
} from '@platform/errors';
import { HttpStatusError, INVALID_JSON_BODY } from './http-status-error.ts';

export interface HttpError {
  status: number;
  body: unknown;
}

/** The one table from domain errors to HTTP statuses and GitLab's error bodies. */
export function errorToHttp(error: unknown): HttpError | undefined {
  if (error instanceof InputError) return { status: 400, body: { error: error.message } };
  if (error instanceof FieldValidationError) return { status: 400, body: { message: error.fields } };
  if (error instanceof RefusedError) return { status: 400, body: { message: error.message } };
  if (error instanceof InvalidRecordError) return { status: 400, body: { message: error.messages } };
  if (error instanceof UnprocessableError) return { status: 422, body: { message: error.wording } };
  if (error instanceof NotFoundError) return { status: 404, body: { message: `404 ${error.message}` } };
  if (error instanceof InvalidTokenError) return { status: 401, body: { error: 'invalid_token', error_description: error.message } };
  if (error instanceof UnauthorizedError) return { status: 401, body: { message: '401 Unauthorized' } };
  if (error instanceof InsufficientScopeError) {
    const body = { error: 'insufficient_scope', error_description: error.message, scope: error.scopes.join(' ') };
    return { status: 403, body };
  }
  if (error instanceof ForbiddenError) {
    if (typeof error.wording !== 'string' || !error.statusLine) return { status: 403, body: { message: error.wording } };
    const message = error.message === 'Forbidden' ? '403 Forbidden' : `403 Forbidden - ${error.message}`;
    return { status: 403, body: { message } };
  }
  if (error instanceof ConflictError) return { status: 409, body: { message: error.wording } };
  if (error instanceof MethodNotAllowedError) return { status: 405, body: { message: `405 ${error.message}` } };
  if (error instanceof NotAcceptableError) return { status: 406, body: { message: error.message } };
  if (error instanceof TooManyRequestsError) return { status: 429, body: { message: { error: error.message } } };
  if (error instanceof NotModifiedError) return { status: 304, body: undefined };
  if (error instanceof UnavailableError || isConnectionFault(error)) return { status: 503, body: { message: '503 Service Unavailable' } };
  return statusError(error);
}

/** body-parser's error types, for errors that lost their status on the way. */
const STATUS_OF_PARSER_ERROR: Record<string, number> = {
  'entity.parse.failed': 400,
  'entity.too.large': 413,
  'parameters.too.many': 413,
  'charset.unsupported': 415,
  'encoding.unsupported': 415,
};

/**
 * Errors that carry their own 4xx status: express's body parsers and router (http-errors) and
 * `HttpStatusError`. They are the client's fault, so they are answered, never logged as 500s.
 */
function statusError(error: unknown): HttpError | undefined {
  if (error instanceof HttpStatusError && error.body !== undefined) return { status: error.status, body: error.body };
  const candidate = error as { status?: unknown; statusCode?: unknown; type?: unknown; message?: unknown } | null;
  const status = candidate?.status ?? candidate?.statusCode ?? STATUS_OF_PARSER_ERROR[String(candidate?.type)];
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (candidate?.type === 'entity.parse.failed') return { status: 400, body: INVALID_JSON_BODY };
  if (status === 400) {
    const detail = error instanceof HttpStatusError ? ` - ${error.message}` : '';
    return { status, body: { message: `400 Bad request${detail}` } };
  }
  return { status, body: { message: `${status} ${STATUS_CODES[status] ?? 'Error'}` } };
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
