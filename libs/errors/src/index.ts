export {
  DomainError,
  InputError,
  FieldValidationError,
  NotFoundError,
  UnauthorizedError,
  ForbiddenError,
  InsufficientScopeError,
  ConflictError,
  NotModifiedError,
  UnavailableError,
} from './domain-errors.ts';
export { isConnectionFault } from './connection-faults.ts';
