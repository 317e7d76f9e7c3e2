import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase } from '@platform/testing';
import { ensureDatabase } from './orm.ts';
import { prepareStatements } from './prepared-statements.ts';

const database = createTestDatabase('prepared');
let pool: pg.Pool;

beforeAll(async () => {
  await ensureDatabase(database.url);
  // One connection, so the session that prepared is the one inspected.
  pool = new pg.Pool({ connectionString: database.url, max: 1 });
});

afterAll(async () => {
  await pool.end();
  await database.drop();
});

const prepared = async () =>
  (await pool.query<{ statement: string }>('select statement from pg_prepared_statements order by statement')).rows.map(
    (row) => row.statement,
  );

describe('prepareStatements', () => {
  it('names parameterised statements once enabled, one name per text, and leaves the rest unnamed', async () => {
    const statements = prepareStatements(pool);
    await pool.query('select $1::integer as before_enabling', [1]);
    expect(await prepared()).toEqual([]);

    statements.enable();
    for (const value of [1, 2, 3]) {
      const { rows } = await pool.query<{ doubled: number }>('select $1::integer * 2 as doubled', [value]);
      expect(rows[0]?.doubled).toBe(value * 2);
    }
    await pool.query('select $1::text as other', ['x']);
    await pool.query('select 1 as no_parameters');
    expect(await prepared()).toEqual(['select $1::integer * 2 as doubled', 'select $1::text as other']);
    expect(statements.count).toBe(2);
  });
});
