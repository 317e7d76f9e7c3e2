import { raw, type EntityName, type FilterQuery, type QueryOrderMap } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type Kysely, type RawBuilder } from 'kysely';

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
export async function readPage<Row extends object>(
  db: Kysely<unknown>,
  query: {
    ctes?: RawBuilder<unknown>;
    rows: RawBuilder<Row>;
    window: PageWindow;
    /** Count every row (protocols such as SCIM require a total): only for lists bounded by design. */
    exactTotal?: boolean;
  } & ({ matching: RawBuilder<unknown> } | { total: RawBuilder<number> }),
): Promise<Page<Row>> {
  const ctes = query.ctes ? sql`with ${query.ctes} ` : sql``;
  const countLimit = query.exactTotal ? sql`` : sql` limit ${COUNT_LIMIT + 1}`;
  const counted =
    'total' in query
      ? sql`select (${query.total})::integer as page_total__`
      : sql`select count(*)::integer as page_total__ from (${query.matching}${countLimit}) matching`;
  const limit = sql`limit ${sql.lit(query.window.limit + 1)}`;
  const window = query.window.offset === 0 ? limit : sql`${limit} offset ${query.window.offset}`;
  const { rows } = await sql<Row & { page_total__: number; page_position__: number | null }>`${ctes}
    select page.*, counted.page_total__
    from (${counted}) counted
    left join lateral (
      select row_number() over () as page_position__, listed.*
      from (${query.rows} ${window}) listed
    ) page on true
    order by page.page_position__`.execute(db);
  const total = rows[0]?.page_total__ ?? 0;
  const listed = rows
    .filter((row) => row.page_position__ !== null)
    .map(({ page_total__: _total, page_position__: _position, ...row }) => row as unknown as Row);
  return {
    items: listed.slice(0, query.window.limit),
    total: total > COUNT_LIMIT && !query.exactTotal ? null : total,
    hasNext: listed.length > query.window.limit,
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
