import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { ConflictError, NotFoundError } from '@platform/errors';

/**
 * Postgres errors become domain errors at the persistence edge: a unique violation is a conflict,
 * a foreign-key violation means the referenced record does not exist.
 */
export function translateDbError(error: unknown, messages: { conflict?: string; notFound?: string } = {}): unknown {
  if (error instanceof UniqueConstraintViolationException) {
    return new ConflictError(messages.conflict ?? 'Conflict');
  }
  if (error instanceof ForeignKeyConstraintViolationException) {
    return new NotFoundError(messages.notFound ?? '');
  }
  return error;
}
