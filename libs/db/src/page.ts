import { raw, type EntityName, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { compiledStatement, type CompiledStatement, type StatementParameters } from './compiled-statement.ts';

/** A window of a list, as offset pagination asks for it. */
export interface PageWindow {
  offset: number;
  limit: number;
}

/**
 * One page of a list and the total it belongs to, read in one snapshot. `total` is null when the
 * list holds more than COUNT_LIMIT rows: GitLab then omits `X-Total`, `X-Total-Pages` and the
 * `last` link rather than count a large table on every request.
 */
export interface Page<Item> {
  items: Item[];
  total: number | null;
  /** Whether rows follow this page. */
  hasNext: boolean;
}

/** Lists count their rows up to this many; beyond it the total is unknown (null). */
export const COUNT_LIMIT = 10_000;

/** Maps each item of a page, keeping its total. */
export function mapPage<From, To>(page: Page<From>, map: (items: From[]) => To[]): Page<To> {
  return { items: map(page.items), total: page.total, hasNext: page.hasNext };
}

/**
 * Reads one page of `rows` (a complete, ordered select) and how many rows `matching` (a select
 * of the same rows, any columns, unordered) holds, up to COUNT_LIMIT, in a single statement, so
 * the page and the total come from one snapshot with one round trip. One row beyond the page
 * tells whether another follows when the total is unknown. `ctes` (without `with`) are shared by both.
 * A list whose size is maintained gives `total` (a scalar expression) instead of `matching`: no
 * row is counted, and above COUNT_LIMIT the total is omitted all the same.
 * The page's size is written into the statement and a first page has no offset: the generic
 * plan of a prepared statement then knows how many rows are wanted, costs what a custom plan
 * costs and is kept, where a bound limit made every execution look cheaper planned anew (a
 * generic plan assumes a tenth of the rows). A deeper page's offset stays bound, planned anew.
 */
export async function readPage<Row extends object>(db: Kysely<unknown>, query: PageQuery<Row>): Promise<Page<Row>> {
  const { rows } = await pageStatement(query, query.window).execute(db);
  return pageOf(rows, query.window.limit, query.exactTotal);
}

/** What a page statement reads: the page's rows, and the rows to count or the maintained total. */
type PageSource<Row extends object> = { ctes?: RawBuilder<unknown>; rows: RawBuilder<Row> } & (
  | { matching: RawBuilder<unknown> }
  | { total: RawBuilder<number> }
);

/** What readPage reads: a page source and the window. */
export type PageQuery<Row extends object> = PageSource<Row> & {
  window: PageWindow;
  /** Count every row (protocols such as SCIM require a total): only for lists bounded by design. */
  exactTotal?: boolean;
};

/** A page statement's rows: the page's rows, each with the total and its position (null on the total's row of an empty page). */
type PageRow<Row> = Row & { page_total__: number; page_position__: number | null };

/** readPage's statement; `offset` is the window's (a value, or a compiled statement's placeholder), absent on a first page. */
function pageStatement<Row extends object>(
  query: PageSource<Row> & { exactTotal?: boolean | undefined },
  window: { limit: number; offset?: number | RawBuilder<number> },
): RawBuilder<PageRow<Row>> {
  const ctes = query.ctes ? sql`with ${query.ctes} ` : sql``;
  const countLimit = query.exactTotal ? sql`` : sql` limit ${COUNT_LIMIT + 1}`;
  const counted =
    'total' in query
      ? sql`select (${query.total})::integer as page_total__`
      : sql`select count(*)::integer as page_total__ from (${query.matching}${countLimit}) matching`;
  const limit = sql`limit ${sql.lit(window.limit + 1)}`;
  const windowed = window.offset === undefined || window.offset === 0 ? limit : sql`${limit} offset ${window.offset}`;
  return sql<PageRow<Row>>`${ctes}
    select page.*, counted.page_total__
    from (${counted}) counted
    left join lateral (
      select row_number() over () as page_position__, listed.*
      from (${query.rows} ${windowed}) listed
    ) page on true
    order by page.page_position__`;
}

/** The page a page statement's rows make: its items, its total (omitted above COUNT_LIMIT unless exact) and whether more follow. */
function pageOf<Row extends object>(rows: Array<PageRow<Row>>, limit: number, exactTotal: boolean | undefined): Page<Row> {
  const total = rows[0]?.page_total__ ?? 0;
  const listed = rows
    .filter((row) => row.page_position__ !== null)
    .map(({ page_total__: _total, page_position__: _position, ...row }) => row as unknown as Row);
  return {
    items: listed.slice(0, limit),
    total: total > COUNT_LIMIT && !exactTotal ? null : total,
    hasNext: listed.length > limit,
  };
}

/** Reads a page of a list whose statement is compiled once per shape (`compiledPage`). */
export type CompiledPage<Shape extends string, Parameters, Row> = (
  db: Kysely<unknown>,
  shape: Shape,
  parameters: Parameters,
  window: PageWindow,
) => Promise<Page<Row>>;

/**
 * readPage for a list whose statement `compiledStatement` compiles once per shape, and per page
 * size and first or deeper page (the size is written into the text, a deeper page's offset is a
 * parameter): the same statement text readPage sends, without building, compiling and looking up
 * its text on every request.
 */
export function compiledPage<Shape extends string, Parameters extends Record<string, unknown>, Row extends object>(
  build: (shape: Shape, parameters: StatementParameters<Parameters>) => PageSource<Row>,
): CompiledPage<Shape, Parameters, Row> {
  const statements = new Map<string, CompiledStatement<Shape, Parameters & { offset: number }, PageRow<Row>>>();
  return async (db, shape, parameters, window) => {
    const deeper = window.offset > 0;
    const key = `${window.limit} ${deeper}`;
    let statement = statements.get(key);
    if (statement === undefined) {
      statement = compiledStatement((shape, p) => {
        const query = build(shape, p);
        return pageStatement(query, { limit: window.limit, ...(deeper ? { offset: p.offset } : {}) });
      });
      statements.set(key, statement);
    }
    const rows = await statement(db, shape, { ...parameters, offset: window.offset });
    return pageOf(rows, window.limit, false);
  };
}

/**
 * Reads one keyset page: `rows` already holds the condition "after the cursor" and its order;
 * one more row than asked for tells whether a next page exists.
 */
export async function readKeysetPage<Row extends object>(
  db: Kysely<unknown>,
  query: { ctes?: RawBuilder<unknown>; rows: RawBuilder<Row>; limit: number },
): Promise<{ items: Row[]; hasMore: boolean }> {
  const ctes = query.ctes ? sql`with ${query.ctes} ` : sql``;
  const { rows } = await sql<Row>`${ctes}${query.rows} limit ${query.limit + 1}`.execute(db);
  return { items: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}

/** A MikroORM query (`?` placeholders) as a kysely fragment, so entity filters can use readPage. */
function fromOrmQuery(query: { sql: string; params: readonly unknown[] }): RawBuilder<unknown> {
  const parts = query.sql.split('?');
  if (parts.length !== query.params.length + 1)
    throw new Error(`cannot embed a query with ${query.params.length} parameters: ${query.sql}`);
  return sql.join(
    parts.flatMap((part, index) => (index < query.params.length ? [sql.raw(part), sql.val(query.params[index])] : [sql.raw(part)])),
    sql``,
  );
}

/** A MikroORM query builder, as entity lists build their filters. */
interface OrmQuery {
  toQuery(): { sql: string; params: readonly unknown[] };
}

/** A MikroORM query builder whose selected columns can be replaced. */
interface SelectableOrmQuery extends OrmQuery {
  clone(): SelectableOrmQuery;
  select(fields: unknown): SelectableOrmQuery;
}

/** readPage for entities a MikroORM query builder selects: `rows` ordered, `matching` not. */
export async function findPageOf<Entity extends object>(
  em: EntityManager,
  entity: EntityName<Entity>,
  query: { matching: SelectableOrmQuery; rows: OrmQuery; window: PageWindow; exactTotal?: boolean },
): Promise<Page<Entity>> {
  const page = await readPage<Record<string, unknown>>(em.getKysely() as unknown as Kysely<unknown>, {
    // Counting needs no columns: selecting the entity's would evaluate its formulas (a subquery
    // per row) for every one of the up to 10,001 rows counted.
    matching: fromOrmQuery(query.matching.clone().select(raw('1')).toQuery()),
    rows: fromOrmQuery(query.rows.toQuery()) as RawBuilder<Record<string, unknown>>,
    window: query.window,
    ...(query.exactTotal ? { exactTotal: true } : {}),
  });
  return mapPage(page, (items) => items.map((row) => em.map(entity, row as never)));
}

/** readPage for entities selected by a MikroORM filter: the page as managed entities. */
export function findPage<Entity extends object>(
  em: EntityManager,
  entity: EntityName<Entity>,
  where: FilterQuery<Entity>,
  options: { orderBy: QueryOrderMap<Entity>; window: PageWindow; exactTotal?: boolean },
): Promise<Page<Entity>> {
  // The generic signatures above are what callers check against; MikroORM's own overloads
  // cannot be satisfied by an unresolved generic entity.
  const matching = em.createQueryBuilder(entity as never).where(where as never);
  const rows = matching.clone().orderBy(options.orderBy as never);
  return findPageOf(em, entity, { matching, rows, window: options.window, ...(options.exactTotal ? { exactTotal: true } : {}) });
}
