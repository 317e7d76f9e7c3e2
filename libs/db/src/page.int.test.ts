import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { sql, type Kysely } from 'kysely';
import { createLogger } from '@platform/logger';
import { createTestDatabase } from '@platform/testing';
import { COUNT_LIMIT, compiledPage, findPage, readKeysetPage, readPage } from './page.ts';
import { recordStatements } from '@platform/testing';
import { createOrm, ensureDatabase, type Orm } from './orm.ts';

const Item = defineEntity({
  name: 'Item',
  tableName: 'items',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string(),
    tag: p.string(),
    /** Counts how often the formula is evaluated. */
    evaluation: p
      .integer()
      .formula(() => `nextval('formula_evaluations')::integer`)
      .persist(false),
  },
});
type Item = InferEntity<typeof Item>;

const database = createTestDatabase('paging');
let orm: Orm;

beforeAll(async () => {
  await ensureDatabase(database.url);
  orm = await createOrm({ url: database.url, entities: [Item], migrations: [], logger: createLogger({ name: 'test', level: 'silent' }) });
  const em = orm.em.fork();
  await em.execute('create table items (id serial primary key, name text not null, tag text not null)');
  await em.execute('create sequence formula_evaluations');
  // More rows than lists count, 30 of them tagged.
  await em.execute(`insert into items (name, tag) select 'item ' || i, case when i % 400 = 0 then 'rare' else 'common' end
    from generate_series(1, ${COUNT_LIMIT + 5}) i`);
});

afterAll(async () => {
  await orm.close();
  await database.drop();
});

const rare = sql`select id, name from items where tag = 'rare'`;

describe('readPage', () => {
  it('reads a page and its total together', async () => {
    const page = await readPage<{ id: number; name: string }>(orm.em.getKysely(), {
      matching: rare,
      rows: sql`${rare} order by id desc`,
      window: { offset: 20, limit: 20 },
    });
    expect(page.total).toBe(25);
    expect(page.hasNext).toBe(false);
    expect(page.items.map((item) => item.id)).toEqual([2000, 1600, 1200, 800, 400]);
    expect(page.items[0]).toEqual({ id: 2000, name: 'item 2000' });
  });

  it('keeps the total when the window is past the end', async () => {
    const page = await readPage(orm.em.getKysely(), {
      matching: rare,
      rows: sql<{ id: number }>`${rare} order by id`,
      window: { offset: 100, limit: 20 },
    });
    expect(page).toEqual({ items: [], total: 25, hasNext: false });
  });

  it('gives no total past the count limit, but says whether more rows follow', async () => {
    const all = sql`select id from items`;
    const first = await readPage<{ id: number }>(orm.em.getKysely(), {
      matching: all,
      rows: sql`${all} order by id`,
      window: { offset: 0, limit: 3 },
    });
    expect(first).toEqual({ items: [{ id: 1 }, { id: 2 }, { id: 3 }], total: null, hasNext: true });
    const last = await readPage<{ id: number }>(orm.em.getKysely(), {
      matching: all,
      rows: sql`${all} order by id`,
      window: { offset: COUNT_LIMIT + 3, limit: 3 },
    });
    expect(last).toEqual({ items: [{ id: COUNT_LIMIT + 4 }, { id: COUNT_LIMIT + 5 }], total: null, hasNext: false });
    const exact = await readPage(orm.em.getKysely(), {
      matching: all,
      rows: sql<{ id: number }>`${all} order by id`,
      window: { offset: 0, limit: 1 },
      exactTotal: true,
    });
    expect(exact.total).toBe(COUNT_LIMIT + 5);
  });
});

describe('compiledPage', () => {
  it('reads what readPage reads, with the same statement, built once per shape, page size and first or deeper page', async () => {
    const built: string[] = [];
    const tagged = compiledPage<'asc' | 'desc', { tag: string }, { id: number; name: string }>((shape, p) => {
      built.push(shape);
      const matching = sql`select id, name from items where tag = ${p.tag}`;
      return { matching, rows: sql`${matching} order by id ${sql.raw(shape)}` };
    });
    const db = orm.em.getKysely() as unknown as Kysely<unknown>;
    const windows = [
      { offset: 0, limit: 20 },
      { offset: 20, limit: 20 },
      { offset: 0, limit: 20 },
      { offset: 40, limit: 20 },
      { offset: 3, limit: 2 },
      { offset: 100, limit: 20 },
    ];
    for (const [shape, window] of windows.flatMap((window) => (['asc', 'desc'] as const).map((shape) => [shape, window] as const))) {
      const rows = sql<{ id: number; name: string }>`select id, name from items where tag = ${'rare'} order by id ${sql.raw(shape)}`;
      let expected: unknown;
      const readPageSent = await recordStatements(async () => {
        expected = await readPage(db, { matching: sql`select id, name from items where tag = ${'rare'}`, rows, window });
      });
      let page: unknown;
      const sent = await recordStatements(async () => {
        page = await tagged(db, shape, { tag: 'rare' }, window);
      });
      expect(page).toEqual(expected);
      expect(sent).toHaveLength(1);
      expect(sent).toEqual(readPageSent);
    }
    // First pages of 20, deeper pages of 20 and deeper pages of 2: each shape built once for each.
    expect(built).toEqual(['asc', 'desc', 'asc', 'desc', 'asc', 'desc']);
  });

  it('gives no total past the count limit', async () => {
    const all = compiledPage<'all', Record<string, never>, { id: number }>(() => ({
      total: sql<number>`${COUNT_LIMIT + 5}`,
      rows: sql`select id from items order by id`,
    }));
    expect(await all(orm.em.getKysely() as unknown as Kysely<unknown>, 'all', {}, { offset: 0, limit: 2 })).toEqual({
      items: [{ id: 1 }, { id: 2 }],
      total: null,
      hasNext: true,
    });
  });
});

describe('findPage', () => {
  it('pages entities chosen by a MikroORM filter', async () => {
    const em = orm.em.fork();
    const page = await findPage(em, Item, { tag: 'rare', id: { $gt: 4000 } }, { orderBy: { id: 'asc' }, window: { offset: 1, limit: 2 } });
    expect(page.total).toBe(15);
    expect(page.hasNext).toBe(true);
    expect(page.items.map((item: Item) => [item.id, item.name])).toEqual([
      [4800, 'item 4800'],
      [5200, 'item 5200'],
    ]);
  });

  it("counts without evaluating the entity's formulas", async () => {
    const em = orm.em.fork();
    await em.execute(`select setval('formula_evaluations', 1, false)`);
    const page = await findPage(em, Item, {}, { orderBy: { id: 'asc' }, window: { offset: 0, limit: 20 } });
    expect(page.total).toBeNull();
    expect(page.items).toHaveLength(20);
    // The page's rows (and the one after it) evaluate the formula; the 10,001 counted rows do not.
    const [sequence] = await em.execute<Array<{ evaluations: string }>>('select last_value as evaluations from formula_evaluations');
    expect(Number(sequence?.evaluations)).toBeLessThanOrEqual(21);
  });
});

describe('readKeysetPage', () => {
  it('reads one row beyond the page to tell whether another follows', async () => {
    const after = await readKeysetPage<{ id: number }>(orm.em.getKysely(), {
      rows: sql`select id from items where tag = 'rare' and id > 9200 order by id`,
      limit: 2,
    });
    expect(after).toEqual({ items: [{ id: 9600 }, { id: 10000 }], hasMore: false });
  });
});
