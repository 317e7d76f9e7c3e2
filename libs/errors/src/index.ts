export {
  DomainError,
  InputError,
  FieldValidationError,
  NotFoundError,
  UnauthorizedError,
  ForbiddenError,
  ConflictError,
  NotModifiedError,
  UnavailableError,
} from './domain-errors.ts';
