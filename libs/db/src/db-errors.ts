import {
  ForeignKeyConstraintViolationException,
  UniqueConstraintViolationException,
  type EntityName,
  type RequiredEntityData,
} from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
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

/**
 * Inserts one entity in the caller's unit of work (and transaction, if one is open), or answers
 * null when a unique constraint says an equal one exists already: for "at most one per user" rows
 * the database decides, race-free. `on conflict do nothing` leaves an open transaction usable,
 * where a violated constraint would abort it.
 */
export async function insertUnlessPresent<Entity extends object>(
  em: EntityManager,
  entityName: EntityName<Entity>,
  data: RequiredEntityData<Entity>,
): Promise<Entity | null> {
  const [row] = await em.createQueryBuilder(entityName).insert(data).onConflict().ignore().returning('*').execute('all', false);
  return row ? em.map(entityName, row) : null;
}
