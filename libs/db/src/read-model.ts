import type { EntityManager } from '@mikro-orm/postgresql';
import type { Kysely } from 'kysely';

/**
 * The query builder a feature's read model reads through: the pool's, outside any unit of work,
 * so a GET neither hydrates entities nor fills an identity map. It never joins a write's
 * transaction: a read model answers from committed rows.
 */
export function readModelDatabase(em: EntityManager): Kysely<unknown> {
  return em.getConnection('read').getClient() as Kysely<unknown>;
}

/**
 * A `timestamptz` column as the ISO 8601 string, in UTC with milliseconds, that the `Date` of an
 * entity serialises to: a view answers the same bytes whether it was given an entity or a row.
 */
export function isoTimestamp(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * A select list naming each column as the view names it (`{ createdAt: 'u.created_at' }` gives
 * `u.created_at as "createdAt"`). Keys and expressions are the read model's constants, never
 * input, so each statement keeps one text and stays prepared.
 */
export function selectList(columns: Record<string, string>): string {
  return Object.entries(columns)
    .map(([name, expression]) => `${expression} as "${name}"`)
    .join(', ');
}

/**
 * A `bigint` column (`array`: a `bigint[]` one) as the numbers an entity's `bigint('number')`
 * holds: the driver answers `bigint` as a string. Exact up to 2^53, as those numbers are.
 */
export function bigintNumber(column: string, options: { array?: boolean } = {}): string {
  return options.array ? `${column}::float8[]` : `${column}::float8`;
}
