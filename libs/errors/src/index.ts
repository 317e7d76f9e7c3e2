export {
  DomainError,
  InputError,
  FieldValidationError,
  RefusedError,
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
