import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isoTimestamp, likePattern, readKeysetPage, readPage, selectList, type Page, type PageWindow } from '@platform/db';
import { MAX_ID } from '../access/sql-helpers.ts';
import { customAttributeTable } from '../custom-attributes/custom-attribute.entity.ts';
import { maintainedCount, USERS_KEY } from '../access/list-counts.ts';
import { NON_INTERNAL_USER_TYPES, type UserState } from './user.entity.ts';
import type { BasicUser, FullUser, PublicUser, UserIdentity } from './user-views.ts';

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

/** Which of GitLab's user representations a read selects the columns of. */
export type UserViewKind = 'basic' | 'public' | 'full';

/** A user's custom attributes, nested in the row when an administrator asks for them. */
export interface WithCustomAttributes {
  customAttributes?: Array<{ key: string; value: string }>;
}

export type FullUserRow = FullUser & { identities: UserIdentity[] } & WithCustomAttributes;
export type UserRow<Kind extends UserViewKind> = (Kind extends 'full' ? FullUserRow : Kind extends 'public' ? PublicUser : BasicUser) &
  WithCustomAttributes;

const BASIC_COLUMNS: Record<keyof BasicUser, string> = {
  id: 'u.id',
  username: 'u.username',
  name: 'u.name',
  state: 'u.state',
  avatarUrl: 'u.avatar_url',
};

const PUBLIC_COLUMNS: Record<keyof PublicUser, string> = {
  ...BASIC_COLUMNS,
  createdAt: isoTimestamp('u.created_at'),
  bio: 'u.bio',
  location: 'u.location',
  publicEmail: 'u.public_email',
  messengerId: 'u.messenger_id',
  professionalProfile: 'u.professional_profile',
  socialHandle: 'u.social_handle',
  websiteUrl: 'u.website_url',
  organization: 'u.organization',
  jobTitle: 'u.job_title',
  privateProfile: 'u.private_profile',
};

const FULL_COLUMNS: Record<keyof FullUser | 'identities', string> = {
  ...PUBLIC_COLUMNS,
  email: 'u.email',
  namespaceId: "(select n.id from namespaces n where n.owner_id = u.id and n.kind = 'user')",
  lastSignInAt: isoTimestamp('u.last_sign_in_at'),
  confirmedAt: isoTimestamp('u.confirmed_at'),
  currentSignInAt: isoTimestamp('u.current_sign_in_at'),
  themeId: 'u.theme_id',
  lastActivityOn: 'u.last_activity_on',
  colorSchemeId: 'u.color_scheme_id',
  projectsLimit: 'u.projects_limit',
  canCreateGroup: 'u.can_create_group',
  twoFactorEnabled: 'u.two_factor_enabled',
  external: 'u.external',
  isAdmin: 'u.is_admin',
  note: 'u.note',
  currentSignInIp: 'u.current_sign_in_ip',
  lastSignInIp: 'u.last_sign_in_ip',
  sharedRunnersMinutesLimit: 'u.shared_runners_minutes_limit',
  extraSharedRunnersMinutesLimit: 'u.extra_shared_runners_minutes_limit',
  signInCount: 'u.sign_in_count',
  identities: `coalesce((select json_agg(json_build_object('provider', i.provider, 'externUid', i.extern_uid,
    'samlProviderId', i.saml_provider_id) order by i.id) from identities i where i.user_id = u.id), '[]')`,
};

const ATTRIBUTES = customAttributeTable('user');
const CUSTOM_ATTRIBUTES_COLUMN = selectList({
  customAttributes: `coalesce((select json_agg(json_build_object('key', a.key, 'value', a.value) order by a.key)
    from ${ATTRIBUTES.tableName} a where a.${ATTRIBUTES.ownerColumn} = u.id), '[]')`,
});

const SELECT_LISTS: Record<UserViewKind, string> = {
  basic: selectList(BASIC_COLUMNS),
  public: selectList(PUBLIC_COLUMNS),
  full: selectList(FULL_COLUMNS),
};

const ORDER_COLUMNS: Record<UserOrderField, string> = {
  id: 'u.id',
  name: 'u.name',
  username: 'u.username',
  createdAt: 'u.created_at',
  updatedAt: 'u.updated_at',
};

/** The columns of a view, with the custom attributes nested when asked for. */
function columnsOf(view: UserViewKind, customAttributes: boolean): RawBuilder<unknown> {
  return sql.raw(customAttributes ? `${SELECT_LISTS[view]}, ${CUSTOM_ATTRIBUTES_COLUMN}` : SELECT_LISTS[view]);
}

/**
 * Users as GitLab's user views show them, read without entities: each read is one statement
 * selecting exactly the view's columns, with identities and custom attributes nested in it.
 */
export class UsersReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  /** One user with the columns of `view`; undefined when nobody has the id. */
  async user<Kind extends UserViewKind>(
    id: number,
    options: { view: Kind; customAttributes?: boolean },
  ): Promise<UserRow<Kind> | undefined> {
    if (id > MAX_ID) return undefined;
    const { rows } = await sql<UserRow<Kind>>`select ${columnsOf(options.view, options.customAttributes === true)}
      from users u where u.id = ${id}`.execute(this.#db);
    return rows[0];
  }

  /** The users among `ids` with the columns of the basic view (other services' user summaries); unknown ids are left out. */
  async basicUsers(ids: number[]): Promise<BasicUser[]> {
    const known = [...new Set(ids)].filter((id) => id <= MAX_ID);
    if (known.length === 0) return [];
    const { rows } = await sql<BasicUser>`select ${sql.raw(SELECT_LISTS.basic)} from users u
      where u.id = any(${known}::integer[])`.execute(this.#db);
    return rows;
  }

  /** A page of `GET /users` and its capped total, in one statement. */
  list<Kind extends UserViewKind>(
    filter: UserListFilter,
    options: { view: Kind; customAttributes?: boolean; window: PageWindow },
  ): Promise<Page<UserRow<Kind>>> {
    const where = conditions(filter);
    const direction = sql.raw(filter.sort);
    // The id breaks ties so that pages neither repeat nor skip users.
    return readPage<UserRow<Kind>>(this.#db, {
      ...(isUnfiltered(filter) ? { total: maintainedCount([USERS_KEY]) } : { matching: sql`select 1 from users u where ${where}` }),
      rows: sql<UserRow<Kind>>`select ${columnsOf(options.view, options.customAttributes === true)} from users u where ${where}
        order by ${sql.raw(ORDER_COLUMNS[filter.orderBy])} ${direction}, u.id ${direction}`,
      window: options.window,
    });
  }

  /** Keyset pagination by id: the users after `afterId` in `sort` order. */
  listAfter<Kind extends UserViewKind>(
    filter: UserListFilter,
    options: { view: Kind; customAttributes?: boolean; afterId?: number | undefined; limit: number },
  ): Promise<{ items: Array<UserRow<Kind>>; hasMore: boolean }> {
    const direction = sql.raw(filter.sort);
    const after = options.afterId === undefined ? sql`true` : sql`u.id ${sql.raw(filter.sort === 'desc' ? '<' : '>')} ${options.afterId}`;
    return readKeysetPage<UserRow<Kind>>(this.#db, {
      rows: sql<UserRow<Kind>>`select ${columnsOf(options.view, options.customAttributes === true)} from users u
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
