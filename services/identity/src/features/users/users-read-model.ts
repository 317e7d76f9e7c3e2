import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  compiledPage,
  compiledStatement,
  likePattern,
  readKeysetPage,
  readPage,
  selectList,
  type Page,
  type PageWindow,
} from '@platform/db';
import { MAX_ID } from '../access/sql-helpers.ts';
import { customAttributeTable } from '../custom-attributes/custom-attribute.entity.ts';
import { maintainedCount, USERS_KEY } from '../access/list-counts.ts';
import { NON_INTERNAL_USER_TYPES, type UserState } from './user.entity.ts';
import { USER_JSON_VIEWS, type BasicUser, type UserJsonView } from './user-views.ts';

type UserOrderField = 'id' | 'name' | 'username' | 'createdAt' | 'updatedAt';

/** What `GET /users` filters on; every field narrows the list. */
export interface UserListFilter {
  /** Substring of the name or username, or the whole of an email address. */
  search?: { term: string; emailColumn: 'email' | 'public_email' };
  username?: string;
  states?: UserState[];
  external?: boolean;
  excludeInternal?: boolean;
  withoutProjects?: boolean;
  identity?: { provider: string; externUid: string };
  createdBefore?: Date;
  createdAfter?: Date;
  customAttributes?: Record<string, string>;
  twoFactorEnabled?: boolean;
  orderBy: UserOrderField;
  sort: 'asc' | 'desc';
}

const BASIC_COLUMNS: Record<keyof BasicUser, string> = {
  id: 'u.id',
  username: 'u.username',
  name: 'u.name',
  state: 'u.state',
  avatarUrl: 'u.avatar_url',
};
const BASIC_SELECT_LIST = selectList(BASIC_COLUMNS);
const ATTRIBUTES = customAttributeTable('user');

/** A user view PostgreSQL built, as its JSON text, with the user's id and state (whom the route may show it to). */
export interface UserJson {
  id: number;
  state: UserState;
  json: string;
}

/**
 * What a read selects: the basic view's columns (the service builds that view), or one of the
 * views PostgreSQL builds as JSON text (`::text`, so that the driver hands the text on unparsed).
 */
export type UserRead = { view: 'basic' } | { view: UserJsonView; viewerId?: number | undefined };
export type UserRow<Read extends UserRead> = Read extends { view: 'basic' } ? BasicUser : UserJson;

/** The select list of a read's view, over `users u` and `v` (`userViewParameters`). */
function columnsOf(view: UserRead['view']): RawBuilder<unknown> {
  if (view === 'basic') return sql.raw(BASIC_SELECT_LIST);
  return sql.raw(`u.id, u.state, (${USER_JSON_VIEWS[view]})::text as json`);
}

/** The viewer's id the JSON views read, null for the basic view and anonymous callers. */
function viewerOf(read: UserRead): number | null {
  return (read.view === 'basic' ? undefined : read.viewerId) ?? null;
}

/** `v`, the statement's parameters the JSON views read: the public URL and the viewer's id (values, or a compiled statement's placeholders). */
function userViewParameters(base: unknown, viewer: unknown): RawBuilder<unknown> {
  return sql`(select ${base}::text as base, ${viewer}::integer as viewer) v`;
}

/** One user by id as a view shows them. */
const userById = compiledStatement<UserRead['view'], { id: number; base: string; viewer: number | null }, unknown>(
  (view, p) => sql`select ${columnsOf(view)} from users u, ${userViewParameters(p.base, p.viewer)} where u.id = ${p.id}`,
);

const ORDER_COLUMNS: Record<UserOrderField, string> = {
  id: 'u.id',
  name: 'u.name',
  username: 'u.username',
  createdAt: 'u.created_at',
  updatedAt: 'u.updated_at',
};

/** A page's users in the list's order (`where` over `u`), as `view` shows them; the id breaks ties so that pages neither repeat nor skip users. */
function pageRows(
  view: UserRead['view'],
  where: RawBuilder<unknown>,
  order: Pick<UserListFilter, 'orderBy' | 'sort'>,
  base: unknown,
  viewer: unknown,
): RawBuilder<unknown> {
  const direction = sql.raw(order.sort);
  return sql`select ${columnsOf(view)} from users u, ${userViewParameters(base, viewer)}
        where ${where} order by ${sql.raw(ORDER_COLUMNS[order.orderBy])} ${direction}, u.id ${direction}`;
}

/** What shapes the unfiltered list's statement: the view, the order field and the direction. */
type UnfilteredShape = `${UserRead['view']} ${UserOrderField} ${UserListFilter['sort']}`;

/** `GET /users` without filters, every client's first request: its total is maintained, and its statement compiled once per shape. */
const unfilteredPage = compiledPage<UnfilteredShape, { base: string; viewer: number | null }, object>((shape, p) => {
  const [view, orderBy, sort] = shape.split(' ') as [UserRead['view'], UserOrderField, UserListFilter['sort']];
  return {
    total: maintainedCount([USERS_KEY]),
    rows: pageRows(view, sql`true`, { orderBy, sort }, p.base, p.viewer) as RawBuilder<object>,
  };
});

/**
 * Users as GitLab's user views show them, read without entities: each read is one statement
 * selecting exactly the basic view's columns, or a view's JSON as PostgreSQL builds it, with
 * identities and custom attributes nested in it.
 */
export class UsersReadModel {
  readonly #db: Kysely<unknown>;
  /** The platform's public URL, which avatar and web URLs begin with. */
  readonly #externalUrl: string;

  constructor(db: Kysely<unknown>, externalUrl: string) {
    this.#db = db;
    this.#externalUrl = externalUrl;
  }

  /** One user as `read` shows them; undefined when nobody has the id. */
  async user<Read extends UserRead>(id: number, read: Read): Promise<UserRow<Read> | undefined> {
    if (id > MAX_ID) return undefined;
    const rows = await userById(this.#db, read.view, { id, base: this.#externalUrl, viewer: viewerOf(read) });
    return rows[0] as UserRow<Read> | undefined;
  }

  /** The users among `ids` with the columns of the basic view (other services' user summaries); unknown ids are left out. */
  async basicUsers(ids: number[]): Promise<BasicUser[]> {
    const known = [...new Set(ids)].filter((id) => id <= MAX_ID);
    if (known.length === 0) return [];
    const { rows } = await sql<BasicUser>`select ${sql.raw(BASIC_SELECT_LIST)} from users u
      where u.id = any(${known}::integer[])`.execute(this.#db);
    return rows;
  }

  /** A page of `GET /users` and its total (maintained without filters, else capped), in one statement. */
  list<Read extends UserRead>(filter: UserListFilter, options: { read: Read; window: PageWindow }): Promise<Page<UserRow<Read>>> {
    const viewer = viewerOf(options.read);
    if (isUnfiltered(filter)) {
      const shape: UnfilteredShape = `${options.read.view} ${filter.orderBy} ${filter.sort}`;
      return unfilteredPage(this.#db, shape, { base: this.#externalUrl, viewer }, options.window) as Promise<Page<UserRow<Read>>>;
    }
    const where = conditions(filter);
    return readPage<UserRow<Read>>(this.#db, {
      matching: sql`select 1 from users u where ${where}`,
      rows: pageRows(options.read.view, where, filter, this.#externalUrl, viewer) as RawBuilder<UserRow<Read>>,
      window: options.window,
    });
  }

  /** Keyset pagination by id: the users after `afterId` in `sort` order. */
  listAfter<Read extends UserRead>(
    filter: UserListFilter,
    options: { read: Read; afterId?: number | undefined; limit: number },
  ): Promise<{ items: Array<UserRow<Read>>; hasMore: boolean }> {
    const direction = sql.raw(filter.sort);
    const after = options.afterId === undefined ? sql`true` : sql`u.id ${sql.raw(filter.sort === 'desc' ? '<' : '>')} ${options.afterId}`;
    return readKeysetPage<UserRow<Read>>(this.#db, {
      rows: sql<
        UserRow<Read>
      >`select ${columnsOf(options.read.view)} from users u, ${userViewParameters(this.#externalUrl, viewerOf(options.read))}
        where ${conditions(filter)} and ${after} order by u.id ${direction}`,
      limit: options.limit,
    });
  }
}

/** Whether the filter keeps every user, whose number `list_counts` maintains; a field added later counts as a filter until said otherwise. */
function isUnfiltered(filter: UserListFilter): boolean {
  const { orderBy: _orderBy, sort: _sort, states, external, excludeInternal, withoutProjects, ...narrowing } = filter;
  return (
    (states ?? []).length === 0 &&
    external !== true &&
    excludeInternal !== true &&
    withoutProjects !== true &&
    Object.values(narrowing).every((value) => value === undefined)
  );
}

/** Which users (alias `u`) the filter keeps. */
function conditions(filter: UserListFilter): RawBuilder<unknown> {
  const where: RawBuilder<unknown>[] = [sql`true`];
  if (filter.search) {
    const pattern = likePattern(filter.search.term);
    const email = sql.ref(`u.${filter.search.emailColumn}`);
    where.push(sql`(u.name ilike ${pattern} or u.username ilike ${pattern} or lower(${email}) = lower(${filter.search.term}))`);
  }
  if (filter.username !== undefined) where.push(sql`lower(u.username) = lower(${filter.username})`);
  for (const state of filter.states ?? []) where.push(sql`u.state = ${state}`);
  if (filter.external) where.push(sql`u.external = true`);
  if (filter.excludeInternal) where.push(sql`u.user_type = any(${[...NON_INTERNAL_USER_TYPES]}::text[])`);
  if (filter.withoutProjects) {
    // Pending access requests are not memberships.
    where.push(sql`not exists (select 1 from members m where m.user_id = u.id and m.source_type = 'Project' and m.requested_at is null)`);
  }
  if (filter.identity) {
    where.push(sql`exists (select 1 from identities i where i.user_id = u.id and i.provider = ${filter.identity.provider}
      and lower(i.extern_uid) = lower(${filter.identity.externUid}))`);
  }
  if (filter.createdBefore) where.push(sql`u.created_at < ${filter.createdBefore}`);
  if (filter.createdAfter) where.push(sql`u.created_at > ${filter.createdAfter}`);
  for (const [key, value] of Object.entries(filter.customAttributes ?? {})) {
    where.push(sql`exists (select 1 from ${sql.table(ATTRIBUTES.tableName)} a
      where ${sql.ref(`a.${ATTRIBUTES.ownerColumn}`)} = u.id and a.key = ${key} and a.value = ${value})`);
  }
  if (filter.twoFactorEnabled !== undefined) where.push(sql`u.two_factor_enabled = ${filter.twoFactorEnabled}`);
  return sql.join(where, sql` and `);
}
