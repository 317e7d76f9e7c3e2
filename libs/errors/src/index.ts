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
  NotModifiedError,
  UnavailableError,
} from './domain-errors.ts';
export { isConnectionFault } from './connection-faults.ts';
