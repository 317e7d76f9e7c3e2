import type { ErrorRequestHandler, Request } from 'express';
import { errorToHttp } from '@platform/http';
import type { Logger } from '@platform/logger';
import {
  ConflictError,
  FieldValidationError,
  ForbiddenError,
  InputError,
  NotFoundError,
  UnauthorizedError,
  UnavailableError,
} from '@platform/errors';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json';

/** A `filter` this service cannot evaluate: RFC 7644's `invalidFilter`. */
export class ScimFilterError extends InputError {
  override name = 'ScimFilterError';
}

/** Why SCIM refuses a group or a user, worded for the identity provider's log as GitLab words it. */
export class ScimNotFoundError extends NotFoundError {
  override name = 'ScimNotFoundError';
  constructor(detail: string) {
    super();
    this.message = detail;
  }
}

/** RFC 7644's `scimType` values that this service reports. */
type ScimType = 'invalidFilter' | 'invalidSyntax' | 'invalidValue' | 'uniqueness';

export interface ScimErrorResponse {
  status: number;
  body: { schemas: [typeof SCIM_ERROR_SCHEMA]; status: string; scimType?: ScimType; detail: string };
}

function scimError(status: number, detail: string, scimType?: ScimType): ScimErrorResponse {
  // RFC 7644 §3.12 writes `status` as a JSON string (GitLab writes a number; both are read by identity providers).
  return {
    status,
    body: { schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail },
  };
}

/** The SCIM twin of `errorToHttp`: domain errors as RFC 7644 error responses. */
export function errorToScim(error: unknown): ScimErrorResponse | undefined {
  if (error instanceof ScimFilterError) return scimError(400, error.message, 'invalidFilter');
  if (error instanceof InputError || error instanceof FieldValidationError) return scimError(400, error.message, 'invalidValue');
  if (error instanceof UnauthorizedError) return scimError(401, 'Unauthorized');
  if (error instanceof ForbiddenError) return scimError(403, error.message);
  if (error instanceof NotFoundError) return scimError(404, error.message);
  if (error instanceof ConflictError) return scimError(409, error.message, 'uniqueness');
  if (error instanceof UnavailableError) return scimError(503, 'Service Unavailable');
  // An unreadable body fails in the JSON parser, before any SCIM route runs.
  const parserError = (error as { type?: unknown } | null)?.type;
  if (parserError === 'entity.parse.failed') return scimError(400, 'The request body is not valid JSON', 'invalidSyntax');
  if (parserError === 'entity.too.large') return scimError(413, 'The request body is too large');
  // Whatever else refused the request before a route ran (a malformed URL or parameter, an
  // unsupported charset) keeps the status GitLab's renderer gives it, in SCIM's shape.
  const refused = errorToHttp(error);
  if (refused && refused.status >= 400) return scimError(refused.status, detailOf(refused.body));
  return undefined;
}

function detailOf(body: unknown): string {
  const { error, message } = (body ?? {}) as { error?: unknown; message?: unknown };
  if (typeof error === 'string') return error;
  return typeof message === 'string' ? message : 'Bad Request';
}

/** Answers every error of the SCIM routes in the SCIM error schema, with the SCIM content type. */
export function scimErrorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    let mapped = errorToScim(error);
    if (!mapped) {
      logger.error({ err: error, method: req.method, url: req.originalUrl }, 'unhandled SCIM error');
      mapped = scimError(500, 'Internal Server Error');
    }
    if (mapped.status === 401) res.set('WWW-Authenticate', 'Bearer');
    res.status(mapped.status).set('Content-Type', SCIM_CONTENT_TYPE).json(mapped.body);
  };
}

/** Other SCIM endpoints (Groups, Schemas, ServiceProviderConfig...) are not offered. */
export function scimEndpointNotFound(req: Request): ScimNotFoundError {
  return new ScimNotFoundError(`${req.method} ${req.baseUrl}${req.path} is not a SCIM endpoint of this service`);
}
