import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestDatabase } from '@platform/testing';
import { ensureDatabase } from './orm.ts';
import { prepareStatements } from './prepared-statements.ts';

const database = createTestDatabase('prepared');
let pool: pg.Pool;
let statements: ReturnType<typeof prepareStatements>;
/** The row descriptions PostgreSQL sent the pool's one connection. */
let rowDescriptions = 0;

beforeAll(async () => {
  await ensureDatabase(database.url);
  // One connection, so the session that prepared is the one inspected.
  pool = new pg.Pool({ connectionString: database.url, max: 1 });
  statements = prepareStatements(pool);
  const client = await pool.connect();
  (client as unknown as { connection: pg.Connection }).connection.on('rowDescription', () => rowDescriptions++);
  client.release();
});

afterAll(async () => {
  await pool.end();
  await database.drop();
});

const prepared = async () =>
  (await pool.query<{ statement: string }>('select statement from pg_prepared_statements order by statement')).rows.map(
    (row) => row.statement,
  );

/** Row descriptions received while `work` runs. */
async function describedDuring(work: () => Promise<unknown>): Promise<number> {
  const before = rowDescriptions;
  await work();
  return rowDescriptions - before;
}

describe('prepareStatements', () => {
  it('names parameterised statements once enabled, one name per text, and leaves the rest unnamed', async () => {
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

  it("describes a named statement's result once per connection, and parses every later execution's rows as the first", async () => {
    statements.enable();
    const text = `select $1::integer as id, $2::text as name, $1::integer > 1 as big, json_build_object('tags', $3::text[]) as doc,
      $3::text[] as tags, null::text as nothing, '2026-01-02T03:04:05Z'::timestamptz as at from generate_series(1, $1::integer)`;
    const read = (id: number, name: string, tags: string[]) => pool.query(text, [id, name, tags]);
    const expected = (id: number, name: string, tags: string[]) =>
      Array.from({ length: id }, () => ({
        id,
        name,
        big: id > 1,
        doc: { tags },
        tags,
        nothing: null,
        at: new Date('2026-01-02T03:04:05Z'),
      }));

    expect(await describedDuring(async () => expect((await read(1, 'one', ['a'])).rows).toEqual(expected(1, 'one', ['a'])))).toBe(1);
    const later = await describedDuring(async () => {
      expect((await read(3, 'three', ['b', 'c'])).rows).toEqual(expected(3, 'three', ['b', 'c']));
      expect((await read(2, 'two', [])).rows).toEqual(expected(2, 'two', []));
      // The client's own query API answers the same: fields and row count.
      const result = await read(2, 'again', ['d']);
      expect(result.fields.map((field) => field.name)).toEqual(['id', 'name', 'big', 'doc', 'tags', 'nothing', 'at']);
      expect(result.rowCount).toBe(2);
    });
    expect(later).toBe(0);
  });

  it('describes again on another connection', async () => {
    statements.enable();
    const text = 'select $1::integer + 1 as next';
    await pool.query(text, [1]);
    const other = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      prepareStatements(other).enable();
      const client = await other.connect();
      let described = 0;
      (client as unknown as { connection: pg.Connection }).connection.on('rowDescription', () => described++);
      expect((await client.query(text, [1])).rows).toEqual([{ next: 2 }]);
      expect((await client.query(text, [2])).rows).toEqual([{ next: 3 }]);
      client.release();
      expect(described).toBe(1);
    } finally {
      await other.end();
    }
  });

  it("keeps one description of a statement for a pool's connections that described it alike", async () => {
    const twoConnections = new pg.Pool({ connectionString: database.url, max: 2 });
    prepareStatements(twoConnections).enable();
    const clients = [await twoConnections.connect(), await twoConnections.connect()];
    try {
      const text = 'select $1::integer as id, $1::text as label';
      const fieldsOf = async (client: pg.PoolClient) => {
        await client.query(text, [1]);
        return (await client.query(text, [2])).fields;
      };
      const [first, second] = [await fieldsOf(clients[0]!), await fieldsOf(clients[1]!)];
      expect(second).toEqual(first);
      expect(second).toBe(first);
    } finally {
      for (const client of clients) client.release();
      await twoConnections.end();
    }
  });

  it('rejects an execution that fails, and the statement still answers on its connection afterwards', async () => {
    statements.enable();
    const text = 'select 10 / $1::integer as quotient';
    // Held, so that every execution is on the connection that described it (the pool drops a connection whose query failed).
    const client = await pool.connect();
    try {
      let described = 0;
      (client as unknown as { connection: pg.Connection }).connection.on('rowDescription', () => described++);
      expect((await client.query(text, [2])).rows).toEqual([{ quotient: 5 }]);
      await expect(client.query(text, [0])).rejects.toMatchObject({ code: '22012' });
      // A parameter pg cannot convert fails before anything is sent for it.
      const unconvertible = {
        toPostgres: () => {
          throw new Error('no text for this value');
        },
      };
      await expect(client.query(text, [unconvertible])).rejects.toThrow('no text for this value');
      expect((await client.query(text, [5])).rows).toEqual([{ quotient: 2 }]);
      expect(described).toBe(1);
    } finally {
      client.release();
    }
  });

  it('refuses, rather than misreads, a described statement whose result a schema change altered', async () => {
    statements.enable();
    await pool.query('create table described_rows (id integer primary key, name text)');
    await pool.query("insert into described_rows values (1, 'one')");
    const text = 'select * from described_rows where id = $1';
    expect((await pool.query(text, [1])).rows).toEqual([{ id: 1, name: 'one' }]);
    await pool.query('alter table described_rows add column added integer');
    await expect(pool.query(text, [1])).rejects.toMatchObject({ code: '0A000' });
  });
});
