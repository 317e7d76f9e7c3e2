import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { createTestDatabase } from '@platform/testing';
import { compiledStatement } from './compiled-statement.ts';
import { ensureDatabase } from './orm.ts';

const database = createTestDatabase('compiled');
let pool: pg.Pool;
let db: Kysely<unknown>;
/** The statement texts sent, in order. */
const sent: string[] = [];

beforeAll(async () => {
  await ensureDatabase(database.url);
  pool = new pg.Pool({ connectionString: database.url, max: 1 });
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, ...rest: unknown[]) => {
      if (typeof text === 'string') sent.push(text);
      return query(text, ...rest);
    };
  });
  db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
});

afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('compiledStatement', () => {
  it('builds each shape once, and executes it with each call’s values, constants kept and a placeholder used twice', async () => {
    const built: string[] = [];
    const numbers = compiledStatement<'ascending' | 'descending', { from: number; label: string }, { n: number; label: string }>(
      (shape, p) => {
        built.push(shape);
        return sql`select n, ${p.label}::text || ' ' || ${p.from}::integer as label from generate_series(${p.from}::integer, ${p.from}::integer + ${2}) n
          order by n ${sql.raw(shape === 'ascending' ? 'asc' : 'desc')}`;
      },
    );
    sent.length = 0;
    expect(await numbers(db, 'ascending', { from: 1, label: 'a' })).toEqual([
      { n: 1, label: 'a 1' },
      { n: 2, label: 'a 1' },
      { n: 3, label: 'a 1' },
    ]);
    expect(await numbers(db, 'ascending', { from: 10, label: 'b' })).toEqual([
      { n: 10, label: 'b 10' },
      { n: 11, label: 'b 10' },
      { n: 12, label: 'b 10' },
    ]);
    expect(await numbers(db, 'descending', { from: 5, label: 'c' })).toEqual([
      { n: 7, label: 'c 5' },
      { n: 6, label: 'c 5' },
      { n: 5, label: 'c 5' },
    ]);
    expect(await numbers(db, 'descending', { from: 0, label: 'd' })).toHaveLength(3);
    expect(built).toEqual(['ascending', 'descending']);
    // One text per shape.
    expect(sent[0]).toBe(sent[1]);
    expect(sent[2]).toBe(sent[3]);
    expect(sent[0]).not.toBe(sent[2]);
  });

  it('binds null and arrays as values', async () => {
    const pick = compiledStatement<'any', { ids: number[]; viewer: number | null }, { id: number; viewer: number | null }>(
      (_shape, p) => sql`select id, ${p.viewer}::integer as viewer from unnest(${p.ids}::integer[]) id order by id`,
    );
    expect(await pick(db, 'any', { ids: [3, 1], viewer: null })).toEqual([
      { id: 1, viewer: null },
      { id: 3, viewer: null },
    ]);
    expect(await pick(db, 'any', { ids: [], viewer: 7 })).toEqual([]);
  });
});
