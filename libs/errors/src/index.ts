export {
  DomainError,
  InputError,
  FieldValidationError,
  RefusedError,
  InvalidRecordError,
  UnprocessableError,
  NotFoundError,
  UnauthorizedError,
  InvalidTokenError,
  ForbiddenError,
  InsufficientScopeError,
  ConflictError,
  MethodNotAllowedError,
  NotAcceptableError,
  TooManyRequestsError,
  NotModifiedError,
  UnavailableError,
} from './domain-errors.ts';
export type { Wording } from './domain-errors.ts';
export { isConnectionFault } from './connection-faults.ts';
