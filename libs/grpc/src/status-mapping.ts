import { status, type ServiceError } from '@grpc/grpc-js';
import {
  ConflictError,
  DomainError,
  FieldValidationError,
  ForbiddenError,
  InputError,
  InsufficientScopeError,
  InvalidRecordError,
  InvalidTokenError,
  isConnectionFault,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  NotModifiedError,
  RefusedError,
  TooManyRequestsError,
  UnauthorizedError,
  UnavailableError,
  UnprocessableError,
} from '@platform/errors';

/** Carries an insufficient scope across the wire in the status details, since the code alone is PERMISSION_DENIED. */
const INSUFFICIENT_SCOPE = 'insufficient_scope:';
/** Likewise an unusable token's description, since the code alone is UNAUTHENTICATED. */
const INVALID_TOKEN = 'invalid_token:';

/** The one table from domain errors to gRPC status codes. */
export function errorToGrpcStatus(error: unknown): { code: status; details: string } {
  const details = error instanceof Error ? error.message : String(error);
  if (error instanceof NotFoundError) return { code: status.NOT_FOUND, details: error.resource };
  if (error instanceof InputError || error instanceof FieldValidationError || error instanceof InvalidRecordError) {
    return { code: status.INVALID_ARGUMENT, details };
  }
  if (error instanceof InvalidTokenError) return { code: status.UNAUTHENTICATED, details: `${INVALID_TOKEN}${error.message}` };
  if (error instanceof UnauthorizedError) return { code: status.UNAUTHENTICATED, details };
  if (error instanceof InsufficientScopeError)
    return { code: status.PERMISSION_DENIED, details: `${INSUFFICIENT_SCOPE}${error.scopes.join(' ')}` };
  if (error instanceof ForbiddenError) return { code: status.PERMISSION_DENIED, details };
  if (error instanceof ConflictError) return { code: status.ALREADY_EXISTS, details };
  // Refusals of what the resource's current state allows.
  if (
    error instanceof RefusedError ||
    error instanceof UnprocessableError ||
    error instanceof MethodNotAllowedError ||
    error instanceof NotAcceptableError ||
    error instanceof NotModifiedError
  ) {
    return { code: status.FAILED_PRECONDITION, details };
  }
  if (error instanceof TooManyRequestsError) return { code: status.RESOURCE_EXHAUSTED, details };
  if (error instanceof UnavailableError || isConnectionFault(error)) return { code: status.UNAVAILABLE, details };
  return { code: status.INTERNAL, details: 'internal error' };
}

/** And back, on the client side, so a caller sees the same domain error the server raised. */
export function grpcErrorToDomain(error: ServiceError): DomainError {
  switch (error.code) {
    case status.NOT_FOUND:
      return new NotFoundError(error.details);
    case status.INVALID_ARGUMENT:
      return new InputError(error.details);
    case status.UNAUTHENTICATED:
      if (error.details.startsWith(INVALID_TOKEN)) return new InvalidTokenError(error.details.slice(INVALID_TOKEN.length));
      return new UnauthorizedError(error.details || undefined);
    case status.PERMISSION_DENIED:
      if (error.details.startsWith(INSUFFICIENT_SCOPE))
        return new InsufficientScopeError(error.details.slice(INSUFFICIENT_SCOPE.length).split(' '));
      return new ForbiddenError(error.details || undefined);
    case status.ALREADY_EXISTS:
      return new ConflictError(error.details);
    case status.FAILED_PRECONDITION:
      return new RefusedError(error.details);
    default:
      return new UnavailableError(`${status[error.code] ?? error.code}: ${error.details}`);
  }
}
