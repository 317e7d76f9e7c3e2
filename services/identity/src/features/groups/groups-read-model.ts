import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  compiledPage,
  compiledStatement,
  isoTimestamp,
  likePattern,
  readKeysetPage,
  readPage,
  selectList,
  type Page,
  type PageWindow,
} from '@platform/db';
import {
  accessCtes,
  groupAccessLevel,
  groupRelatedTo,
  groupVisibleTo,
  groupWithAccess,
  listedGroupVisibleTo,
  relatedGroupCount,
  userIdOf,
  viewerFactsOf,
  viewerKind,
  visibleGroupCount,
  type Viewer,
  type ViewerFacts,
  type ViewerKind,
} from '../access/access-sql.ts';
import { MAX_ID, namespaceFullName, type Keyset, type KeysetPage } from '../access/sql-helpers.ts';
import { customAttributeTable } from '../custom-attributes/custom-attribute.entity.ts';
import { groupDetailsProjects } from '../projects/projects-read-model.ts';
import type { GroupDetailsRow, ListedGroup, PublicGroup } from './group-rows.ts';

/** Which groups a list holds, beyond the viewer's visibility. */
export interface GroupFilter {
  /** Direct subgroups of this group. */
  parentId?: number;
  /** Strict descendants of this group. */
  descendantsOf?: number;
  topLevelOnly?: boolean;
  /** Groups the user owns through a direct Owner membership. */
  ownedBy?: number;
  /** Groups where the viewer's effective access is at least this. */
  minAccessLevel?: number;
  /** Only groups the viewer is related to: member of them, of an ancestor, or of something inside. */
  relatedOnly?: boolean;
  skipIds?: number[];
  /** Only groups whose project creation level lets anybody create projects (not `noone`). */
  projectCreationAllowed?: boolean;
  /** Name or path contains this, case-insensitively. */
  search?: string;
  customAttributes?: Record<string, string>;
}

/** The deprecated `projects` and `shared_projects` of group details hold at most this many each (`GroupProjectsFinder::DEFAULT_PROJECTS_LIMIT`). */
const DETAIL_PROJECTS_LIMIT = 100;

export const GROUP_ORDERS = ['name', 'path', 'id'] as const;
export type GroupOrder = (typeof GROUP_ORDERS)[number];

/** What a group list shows besides its columns, for administrators who ask. */
export interface GroupListExtras {
  customAttributes?: boolean;
  statistics?: boolean;
}

const FULL_NAME = namespaceFullName('n');

const PUBLIC_COLUMNS: Record<keyof PublicGroup, string> = {
  id: 'n.id',
  name: 'n.name',
  avatarUrl: 'n.avatar_url',
  fullPath: 'n.full_path',
  fullName: FULL_NAME,
};

const LISTED_COLUMNS: Record<Exclude<keyof ListedGroup, 'customAttributes' | 'statistics'>, string> = {
  ...PUBLIC_COLUMNS,
  path: 'n.path',
  description: 'n.description',
  visibility: 'n.visibility',
  shareWithGroupLock: 'n.share_with_group_lock',
  requireTwoFactorAuthentication: 'n.require_two_factor_authentication',
  twoFactorGracePeriod: 'n.two_factor_grace_period',
  projectCreationLevel: 'n.project_creation_level',
  autoDevopsEnabled: 'n.auto_devops_enabled',
  subgroupCreationLevel: 'n.subgroup_creation_level',
  emailsDisabled: 'n.emails_disabled',
  mentionsDisabled: 'n.mentions_disabled',
  lfsEnabled: 'n.lfs_enabled',
  defaultBranchProtection: 'n.default_branch_protection',
  requestAccessEnabled: 'n.request_access_enabled',
  createdAt: isoTimestamp('n.created_at'),
  parentId: 'n.parent_id',
  fileTemplateProjectId: 'n.file_template_project_id',
};

const ATTRIBUTES = customAttributeTable('group');
const EXTRA_COLUMNS: Record<keyof GroupListExtras, string> = {
  customAttributes: selectList({
    customAttributes: `coalesce((select json_agg(json_build_object('key', a.key, 'value', a.value) order by a.key)
      from ${ATTRIBUTES.tableName} a where a.${ATTRIBUTES.ownerColumn} = n.id), '[]')`,
  }),
  statistics: selectList({
    statistics: `json_build_object('storageSize', n.storage_size, 'repositorySize', n.repository_size, 'wikiSize', n.wiki_size,
      'lfsObjectsSize', n.lfs_objects_size, 'jobArtifactsSize', n.job_artifacts_size, 'packagesSize', n.packages_size,
      'snippetsSize', n.snippets_size)`,
  }),
};

const PUBLIC_SELECT = selectList(PUBLIC_COLUMNS);
const LISTED_SELECT = selectList(LISTED_COLUMNS);

function listedColumns(extras: GroupListExtras): RawBuilder<unknown> {
  const columns = [LISTED_SELECT];
  if (extras.customAttributes) columns.push(EXTRA_COLUMNS.customAttributes);
  if (extras.statistics) columns.push(EXTRA_COLUMNS.statistics);
  return sql.raw(columns.join(', '));
}

/**
 * Groups as GitLab's group views show them, read without entities: a list page, its total,
 * full names and the extras asked for in one statement; a group's details, the viewer's access
 * and its visible shares in one statement.
 */
export class GroupsReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  list(options: {
    viewer: Viewer;
    filter: GroupFilter;
    order: { by: GroupOrder; sort: 'asc' | 'desc' };
    window: PageWindow;
    extras?: GroupListExtras;
  }): Promise<Page<ListedGroup>> {
    const { viewer, order } = options;
    const extras = options.extras ?? {};
    const groups = knownTotalGroups(options.filter);
    if (groups === undefined) return this.#page(listedColumns(extras), options);
    const shape: KnownTotalShape = `${viewerKind(viewer)} ${groups} ${order.by} ${order.sort}${
      extras.customAttributes === true ? ' custom-attributes' : ''
    }${extras.statistics === true ? ' statistics' : ''}`;
    return knownTotalPage(this.#db, shape, { userId: userIdOf(viewer) }, options.window);
  }

  /** Groups as `PublicGroupDetails` shows them (transfer locations). */
  listPublic(options: {
    viewer: Viewer;
    filter: GroupFilter;
    order: { by: GroupOrder; sort: 'asc' | 'desc' };
    window: PageWindow;
  }): Promise<Page<PublicGroup>> {
    return this.#page(sql.raw(PUBLIC_SELECT), options);
  }

  /** Keyset pagination by id: the groups after `keyset.afterId` in `keyset.sort` order. */
  listAfter(options: { viewer: Viewer; filter: GroupFilter; keyset: Keyset; extras?: GroupListExtras }): Promise<KeysetPage<ListedGroup>> {
    const { viewer, keyset } = options;
    const direction = sql.raw(keyset.sort === 'desc' ? 'desc' : 'asc');
    const after = keyset.afterId === undefined ? sql`true` : sql`n.id ${sql.raw(keyset.sort === 'desc' ? '<' : '>')} ${keyset.afterId}`;
    const { where, ...access } = groupConditions(viewer, options.filter);
    return readKeysetPage<ListedGroup>(this.#db, {
      ...access,
      rows: sql<ListedGroup>`select ${listedColumns(options.extras ?? {})} from namespaces n
        where ${where} and ${after} order by n.id ${direction}`,
      limit: keyset.limit,
    });
  }

  /**
   * `GET /groups/:id` of a group the viewer may see, with their access level, its shares with
   * groups they may see and, with `withProjects`, its projects, in one statement; undefined when
   * there is no such group or the viewer may not see it.
   */
  async details(options: {
    viewer: Viewer;
    idOrPath: number | string;
    customAttributes?: boolean;
    withProjects?: boolean;
  }): Promise<GroupDetailsRow | undefined> {
    const { viewer, idOrPath } = options;
    if (typeof idOrPath === 'number' && idOrPath > MAX_ID) return undefined;
    const shape: GroupDetailsShape = `${viewerKind(viewer)} ${typeof idOrPath === 'number' ? 'id' : 'path'}${
      options.customAttributes === true ? ' custom-attributes' : ''
    }${options.withProjects === true ? ' projects' : ''}`;
    const rows = await groupDetails(this.#db, shape, { userId: userIdOf(viewer), key: idOrPath });
    return rows[0];
  }

  #page<Row extends object>(
    columns: RawBuilder<unknown>,
    options: { viewer: Viewer; filter: GroupFilter; order: { by: GroupOrder; sort: 'asc' | 'desc' }; window: PageWindow },
  ): Promise<Page<Row>> {
    const { viewer } = options;
    const { where, ...access } = groupConditions(viewer, options.filter);
    const groups = knownTotalGroups(options.filter);
    return readPage<Row>(this.#db, {
      ...access,
      ...(groups === undefined
        ? { matching: sql`select 1 from namespaces n where ${where}` }
        : { total: knownTotal(groups, viewerKind(viewer), userIdOf(viewer)) }),
      rows: pageRows<Row>(columns, where, options.order),
      window: options.window,
    });
  }
}

/**
 * What a group details statement is built for: the kind of viewer (their id is a parameter), the
 * group's key (its id or its path), and whether it reads custom attributes and projects.
 */
type GroupDetailsShape = `${ViewerKind} ${'id' | 'path'}${'' | ' custom-attributes'}${'' | ' projects'}`;

/** `GroupsReadModel.details`: 13 KB of text with its projects, built and compiled once per shape. */
const groupDetails = compiledStatement<GroupDetailsShape, { userId: number; key: number | string }, GroupDetailsRow>((shape, p) => {
  const [kind, key, ...reads] = shape.split(' ') as [ViewerKind, 'id' | 'path', ...string[]];
  const viewer = viewerFactsOf(kind, p.userId);
  const match = key === 'id' ? sql`n.id = ${p.key}` : sql`lower(n.full_path) = lower(${p.key})`;
  const projects = reads.includes('projects')
    ? sql`, ${groupDetailsProjects(viewer, sql.ref('n.id'), DETAIL_PROJECTS_LIMIT)} as projects`
    : sql``;
  return sql<GroupDetailsRow>`
      select ${listedColumns({ customAttributes: reads.includes('custom-attributes') })}, n.runners_token as "runnersToken",
        ${groupAccessLevel(viewer)} as "accessLevel",
        coalesce((select json_agg(json_build_object('groupId', g.id, 'groupName', g.name, 'groupFullPath', g.full_path,
            'groupAccess', l.group_access, 'expiresAt', l.expires_at) order by l.id)
          from group_group_links l join namespaces g on g.id = l.shared_with_group_id and g.kind = 'group'
          where l.shared_group_id = n.id and ${groupVisibleTo(viewer, 'g')}), '[]') as shares${projects}
      from namespaces n where n.kind = 'group' and ${match} and ${groupVisibleTo(viewer)}`;
});

/** A page's groups (`where` over `n`) in the list's order; the id breaks ties so that pages neither repeat nor skip groups. */
function pageRows<Row>(columns: RawBuilder<unknown>, where: RawBuilder<unknown>, order: { by: GroupOrder; sort: 'asc' | 'desc' }) {
  const direction = sql.raw(order.sort === 'desc' ? 'desc' : 'asc');
  // Names and paths sort case-insensitively, whatever the database's collation.
  const column = order.by === 'id' ? sql.ref('n.id') : sql.raw(`lower(n.${order.by})`);
  return sql<Row>`select ${columns} from namespaces n where ${where} order by ${column} ${direction}, n.id ${direction}`;
}

/**
 * Which groups a list whose total is known without counting its rows holds: every group the
 * viewer sees (`visible`, a list without filters) or the groups they are related to (`related`,
 * a list of those alone). Any other filter field set, including one added later, counts the
 * list's rows up to the cap.
 */
function knownTotalGroups(filter: GroupFilter): 'visible' | 'related' | undefined {
  const filtered = Object.keys(filter).filter((key) => filter[key as keyof GroupFilter] !== undefined);
  if (filtered.length === 0) return 'visible';
  return filtered.length === 1 && filter.relatedOnly === true ? 'related' : undefined;
}

/** The total of such a list: from the counts `list_counts` maintains (`visibleGroupCount`), or the viewer's relations (`relatedGroupCount`). */
function knownTotal(groups: 'visible' | 'related', kind: ViewerKind, userId: number | RawBuilder<number>): RawBuilder<number> {
  return groups === 'visible' ? visibleGroupCount(kind, userId) : relatedGroupCount(viewerFactsOf(kind, userId));
}

/** What shapes the statement of a list whose total is known: the kind of viewer (their id is a parameter), its groups, its order and its extras. */
type KnownTotalShape =
  `${ViewerKind} ${'visible' | 'related'} ${GroupOrder} ${'asc' | 'desc'}${'' | ' custom-attributes'}${'' | ' statistics'}`;

/** `GET /groups` as clients first ask for it (no filters, or a user's related groups): its statement compiled once per shape. */
const knownTotalPage = compiledPage<KnownTotalShape, { userId: number }, ListedGroup>((shape, p) => {
  const [kind, groups, by, sort] = shape.split(' ') as [ViewerKind, 'visible' | 'related', GroupOrder, 'asc' | 'desc'];
  const viewer = viewerFactsOf(kind, p.userId);
  const where = groupsListed(viewer, groups === 'related');
  const extras = { customAttributes: shape.includes(' custom-attributes'), statistics: shape.includes(' statistics') };
  return { total: knownTotal(groups, kind, p.userId), rows: pageRows<ListedGroup>(listedColumns(extras), where, { by, sort }) };
});

/** The groups (alias `n`) a list holds before its filters: those the viewer sees, or those they are related to. */
function groupsListed(viewer: Viewer | ViewerFacts, relatedOnly: boolean): RawBuilder<unknown> {
  // A group the viewer is related to is one they may see: the visibility test would only add an `or` that hides the key.
  return sql`n.kind = 'group' and ${relatedOnly ? groupRelatedTo(viewer) : listedGroupVisibleTo(viewer)}`;
}

/**
 * Which namespaces (alias `n`) a group list holds, and `accessCtes` where a condition reads them:
 * a minimum access level. Visibility and related groups read `group_relations`. A list goes
 * without the expressions otherwise: a statement is planned with every common table expression
 * it names, used or not, and an administrator's page, whose cheapest plan depends on its window,
 * is planned on every request.
 */
function groupConditions(viewer: Viewer, filter: GroupFilter): { where: RawBuilder<unknown>; ctes?: RawBuilder<unknown> } {
  const conditions: RawBuilder<unknown>[] = [groupsListed(viewer, filter.relatedOnly === true)];
  if (filter.parentId !== undefined) conditions.push(sql`n.parent_id = ${filter.parentId}`);
  if (filter.descendantsOf !== undefined) {
    conditions.push(sql`n.traversal_ids @> array[${filter.descendantsOf}]::integer[] and n.id <> ${filter.descendantsOf}`);
  }
  if (filter.topLevelOnly) conditions.push(sql`n.parent_id is null`);
  if (filter.ownedBy !== undefined) {
    conditions.push(sql`n.id in (
      select m.source_id from members m
      where m.source_type = 'Group' and m.user_id = ${filter.ownedBy} and m.access_level = 50
        and m.requested_at is null and (m.expires_at is null or m.expires_at > current_date))`);
  }
  if (filter.minAccessLevel !== undefined) {
    conditions.push(groupWithAccess(viewer, filter.minAccessLevel));
  }
  if (filter.skipIds && filter.skipIds.length > 0) conditions.push(sql`n.id <> all(${filter.skipIds}::integer[])`);
  if (filter.projectCreationAllowed) conditions.push(sql`n.project_creation_level <> 'noone'`);
  if (filter.search) {
    const pattern = likePattern(filter.search);
    conditions.push(sql`(n.name ilike ${pattern} or n.path ilike ${pattern})`);
  }
  for (const [key, value] of Object.entries(filter.customAttributes ?? {})) {
    conditions.push(
      sql`exists (select 1 from group_custom_attributes c where c.group_id = n.id and c.key = ${key} and c.value = ${value})`,
    );
  }
  const where = sql.join(conditions, sql` and `);
  return filter.minAccessLevel !== undefined && viewer.kind === 'user' ? { where, ctes: accessCtes(viewer) } : { where };
}
