import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  compiledStatement,
  isoTimestamp,
  likePattern,
  readKeysetPage,
  readPage,
  selectList,
  type Page,
  type PageWindow,
  type StatementParameters,
} from '@platform/db';
import {
  groupAccessLevel,
  groupVisibleTo,
  projectAccessLevel,
  projectVisibleTo,
  projectWithAccess,
  userIdOf,
  userRowFacts,
  viewerFactsOf,
  viewerKind,
  visibleProjectCount,
  visibleProjectIds,
  type Viewer,
  type ViewerFacts,
  type ViewerKind,
} from '../access/access-sql.ts';
import { projectKey, projectKeyMatch, projectMatch, type ProjectKey } from '../access/access-policy.ts';
import type { Visibility } from '../access/namespace.entity.ts';
import { MAX_ID, namespaceFullName, type Keyset, type KeysetPage } from '../access/sql-helpers.ts';
import { customAttributeTable } from '../custom-attributes/custom-attribute.entity.ts';
import type { ListedProject, ProjectDetailsRow, SimpleProject } from './project-rows.ts';

/** What `accessSummary` reads: a project's summary columns, its namespace, and the user's access level and administrator flag. */
export interface ProjectAccessSummary {
  id: number;
  name: string;
  path: string;
  description: string | null;
  visibility: Visibility;
  archived: boolean;
  defaultBranch: string;
  creatorId: number | null;
  createdAt: string;
  mergeMethod: string;
  forkedFromProjectId: number | null;
  onlyAllowMergeIfPipelineSucceeds: boolean;
  allowMergeOnSkippedPipeline: boolean | null;
  onlyAllowMergeIfAllDiscussionsAreResolved: boolean;
  namespace: {
    id: number;
    name: string;
    path: string;
    kind: 'group' | 'user';
    fullPath: string;
    parentId: number | null;
    traversalIds: number[];
    fullName: string;
  };
  accessLevel: number;
  isAdmin: boolean;
}

/** Which projects a list holds, beyond the viewer's visibility. */
export interface ProjectFilter {
  /** Projects whose namespace is one of these... */
  namespaceIds?: number[];
  /** ...or, together with `namespaceIds`, that are shared with this group. */
  orSharedWithGroupId?: number;
  /** Only projects shared with this group. */
  sharedWithGroupId?: number;
  archived?: boolean;
  visibility?: Visibility;
  /** Name, path or description contains this, case-insensitively. */
  search?: string;
  /** With `search`: also match the namespace's full path. */
  searchNamespaces?: boolean;
  /** Projects where the viewer's effective access is at least this. */
  minAccessLevel?: number;
  starredBy?: number;
  withIssuesEnabled?: boolean;
  withMergeRequestsEnabled?: boolean;
  /** Only projects with security reports; none has any until a CI service reports them. */
  withSecurityReports?: boolean;
  topics?: string[];
  idAfter?: number;
  idBefore?: number;
  lastActivityAfter?: Date;
  lastActivityBefore?: Date;
  customAttributes?: Record<string, string>;
  /** Only forks of this project. */
  forkedFromProjectId?: number;
}

export const PROJECT_ORDERS = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count'] as const;
export type ProjectOrder = (typeof PROJECT_ORDERS)[number];

/** GitLab's two project list views: `simple=true`, or the full project entity. */
export type ProjectListView = 'simple' | 'full';

/** What a list reads for its view: the simple view's columns, or the full one's with custom attributes when asked. */
export interface ProjectListRead {
  view: ProjectListView;
  customAttributes?: boolean;
}

/** A page of projects, tagged with the view its rows were read for. */
export type ProjectListPage = (Page<SimpleProject> & { view: 'simple' }) | (Page<ListedProject> & { view: 'full' });
/** A page's projects in the view they were read for. */
type ProjectRows = { items: SimpleProject[]; view: 'simple' } | { items: ListedProject[]; view: 'full' };
export type ProjectKeysetPage = (KeysetPage<SimpleProject> & { view: 'simple' }) | (KeysetPage<ListedProject> & { view: 'full' });

/** The fields of a project's namespace (alias `pn`) that every project view carries, its full name last. */
const NAMESPACE_FIELDS = {
  id: 'pn.id',
  name: 'pn.name',
  path: 'pn.path',
  kind: 'pn.kind',
  fullPath: 'pn.full_path',
  parentId: 'pn.parent_id',
};
const NAMESPACE_FULL_NAME = namespaceFullName('pn');

/** `json_build_object` of columns named as the view names them: a nested object of the same shape as a selected row. */
function jsonObject(columns: Record<string, string>): string {
  return `json_build_object(${Object.entries(columns)
    .map(([name, expression]) => `'${name}', ${expression}`)
    .join(', ')})`;
}

/** The simple view's columns of a project (alias `alias`), its namespace nested. */
function simpleColumns(alias: string): Record<keyof SimpleProject, string> {
  return {
    id: `${alias}.id`,
    description: `${alias}.description`,
    name: `${alias}.name`,
    path: `${alias}.path`,
    defaultBranch: `${alias}.default_branch`,
    topics: `${alias}.topics`,
    avatarUrl: `${alias}.avatar_url`,
    createdAt: isoTimestamp(`${alias}.created_at`),
    lastActivityAt: isoTimestamp(`${alias}.last_activity_at`),
    namespace: `(select ${jsonObject({ ...NAMESPACE_FIELDS, avatarUrl: 'pn.avatar_url', fullName: NAMESPACE_FULL_NAME })} from namespaces pn where pn.id = ${alias}.namespace_id)`,
    starCount: `(select count(*)::integer from project_stars s where s.project_id = ${alias}.id)`,
    forksCount: `(select count(*)::integer from projects fork where fork.forked_from_project_id = ${alias}.id)`,
  };
}

/** The full view's columns that do not depend on the viewer. */
const LISTED_COLUMNS: Record<Exclude<keyof ListedProject, 'forkedFrom' | 'shares' | 'customAttributes'>, string> = {
  ...simpleColumns('p'),
  packagesEnabled: 'p.packages_enabled',
  archived: 'p.archived',
  visibility: 'p.visibility',
  resolveOutdatedDiffDiscussions: 'p.resolve_outdated_diff_discussions',
  containerExpirationPolicyCadence: 'p.container_expiration_policy_cadence',
  containerExpirationPolicyEnabled: 'p.container_expiration_policy_enabled',
  containerExpirationPolicyKeepN: 'p.container_expiration_policy_keep_n',
  containerExpirationPolicyOlderThan: 'p.container_expiration_policy_older_than',
  containerExpirationPolicyNameRegex: 'p.container_expiration_policy_name_regex',
  containerExpirationPolicyNameRegexKeep: 'p.container_expiration_policy_name_regex_keep',
  containerExpirationPolicyNextRunAt: isoTimestamp('p.container_expiration_policy_next_run_at'),
  issuesAccessLevel: 'p.issues_access_level',
  repositoryAccessLevel: 'p.repository_access_level',
  mergeRequestsAccessLevel: 'p.merge_requests_access_level',
  forkingAccessLevel: 'p.forking_access_level',
  wikiAccessLevel: 'p.wiki_access_level',
  buildsAccessLevel: 'p.builds_access_level',
  snippetsAccessLevel: 'p.snippets_access_level',
  pagesAccessLevel: 'p.pages_access_level',
  analyticsAccessLevel: 'p.analytics_access_level',
  containerRegistryAccessLevel: 'p.container_registry_access_level',
  securityAndComplianceAccessLevel: 'p.security_and_compliance_access_level',
  releasesAccessLevel: 'p.releases_access_level',
  environmentsAccessLevel: 'p.environments_access_level',
  featureFlagsAccessLevel: 'p.feature_flags_access_level',
  infrastructureAccessLevel: 'p.infrastructure_access_level',
  monitorAccessLevel: 'p.monitor_access_level',
  emailsDisabled: 'p.emails_disabled',
  sharedRunnersEnabled: 'p.shared_runners_enabled',
  lfsEnabled: 'p.lfs_enabled',
  creatorId: 'p.creator_id',
  forkedFromProjectId: 'p.forked_from_project_id',
  updatedAt: isoTimestamp('p.updated_at'),
  ciConfigPath: 'p.ci_config_path',
  publicJobs: 'p.public_jobs',
  onlyAllowMergeIfPipelineSucceeds: 'p.only_allow_merge_if_pipeline_succeeds',
  allowMergeOnSkippedPipeline: 'p.allow_merge_on_skipped_pipeline',
  requestAccessEnabled: 'p.request_access_enabled',
  onlyAllowMergeIfAllDiscussionsAreResolved: 'p.only_allow_merge_if_all_discussions_are_resolved',
  removeSourceBranchAfterMerge: 'p.remove_source_branch_after_merge',
  printingMergeRequestLinkEnabled: 'p.printing_merge_request_link_enabled',
  mergeMethod: 'p.merge_method',
  squashOption: 'p.squash_option',
  repositoryStorage: 'p.repository_storage',
  // GitLab shows the day the project was marked.
  markedForDeletionOn: `to_char(p.marked_for_deletion_at at time zone 'UTC', 'YYYY-MM-DD')`,
  owner: `(select ${jsonObject({ id: 'u.id', username: 'u.username', name: 'u.name', state: 'u.state', avatarUrl: 'u.avatar_url' })}
    from namespaces o join users u on u.id = o.owner_id where o.id = p.namespace_id and o.kind = 'user')`,
};

const SIMPLE_SELECT = selectList(simpleColumns('p'));
const LISTED_SELECT = selectList(LISTED_COLUMNS);
const FORKED_FROM_JSON = jsonObject(simpleColumns('source'));

const ATTRIBUTES = customAttributeTable('project');
const CUSTOM_ATTRIBUTES_SELECT = selectList({
  customAttributes: `coalesce((select json_agg(json_build_object('key', a.key, 'value', a.value) order by a.key)
    from ${ATTRIBUTES.tableName} a where a.${ATTRIBUTES.ownerColumn} = p.id), '[]')`,
});

/** The full view's columns that depend on the viewer: the source of a fork where they may see it, the shares with groups they may see. */
function viewerColumns(viewer: Viewer | ViewerFacts): RawBuilder<unknown> {
  return sql`(select ${sql.raw(FORKED_FROM_JSON)} from projects source
      where source.id = p.forked_from_project_id and ${projectVisibleTo(viewer, 'source')}) as "forkedFrom",
    coalesce((select json_agg(json_build_object('groupId', g.id, 'groupName', g.name, 'groupFullPath', g.full_path,
        'groupAccess', l.group_access, 'expiresAt', l.expires_at) order by l.id)
      from project_group_links l join namespaces g on g.id = l.group_id and g.kind = 'group'
      where l.project_id = p.id and ${groupVisibleTo(viewer, 'g')}), '[]') as shares`;
}

/** The full view's columns that do not depend on the viewer, with the custom attributes asked for. */
function fixedColumns(customAttributes: boolean): RawBuilder<unknown> {
  return sql.raw(customAttributes ? `${LISTED_SELECT}, ${CUSTOM_ATTRIBUTES_SELECT}` : LISTED_SELECT);
}

/** The columns a statement reads of each project: the simple view's, or the full view's with or without custom attributes. */
type ColumnsRead = 'simple' | 'full' | 'full with custom attributes';

function columnsRead(read: ProjectListRead): ColumnsRead {
  if (read.view === 'simple') return 'simple';
  return read.customAttributes === true ? 'full with custom attributes' : 'full';
}

function columnsOf(columns: ColumnsRead, viewer: Viewer | ViewerFacts): RawBuilder<unknown> {
  if (columns === 'simple') return sql.raw(SIMPLE_SELECT);
  return sql`${fixedColumns(columns === 'full with custom attributes')}, ${viewerColumns(viewer)}`;
}

/**
 * What a compiled statement of projects is built for: the kind of viewer (their id is a
 * parameter) and the columns read.
 */
type ProjectsShape<Columns extends ColumnsRead> = `${ViewerKind} ${Columns}`;

function projectsShape<Columns extends ColumnsRead>(viewer: Viewer, columns: Columns): ProjectsShape<Columns> {
  return `${viewerKind(viewer)} ${columns}`;
}

/** A shape's kind of viewer, with the placeholder of their id, and its columns. */
function readShape<Columns extends ColumnsRead>(
  shape: ProjectsShape<Columns>,
  userId: RawBuilder<number>,
): { viewer: ViewerFacts; columns: Columns } {
  const space = shape.indexOf(' ');
  return { viewer: viewerFactsOf(shape.slice(0, space) as ViewerKind, userId), columns: shape.slice(space + 1) as Columns };
}

/**
 * A statement of one project, compiled once for each kind of key (id or path) and shape, and
 * executed with the values of the key a request gives; `build` is given the key's condition.
 */
function byProjectKey<Shape extends string, Parameters extends Record<string, unknown>, Row>(
  build: (shape: Shape, parameters: StatementParameters<Parameters>, match: RawBuilder<unknown>) => RawBuilder<Row>,
): (db: Kysely<unknown>, shape: Shape, parameters: Parameters, key: ProjectKey) => Promise<Row[]> {
  const byId = compiledStatement<Shape, Parameters & { id: number }, Row>((shape, p) => build(shape, p, projectKeyMatch({ id: p.id })));
  const byPath = compiledStatement<Shape, Parameters & { namespacePath: string; path: string }, Row>((shape, p) =>
    build(shape, p, projectKeyMatch({ namespacePath: p.namespacePath, path: p.path })),
  );
  return (db, shape, parameters, key) =>
    'id' in key ? byId(db, shape, { ...parameters, ...key }) : byPath(db, shape, { ...parameters, ...key });
}

/** `GET /projects/:id`: the full view, the viewer's own membership and access to its group, and whether they may see it. */
const projectDetails = byProjectKey<
  ProjectsShape<'full' | 'full with custom attributes'>,
  { userId: number },
  ProjectDetailsRow & { visible: boolean }
>((shape, p, match) => {
  const { viewer, columns } = readShape(shape, p.userId);
  return sql`select ${columnsOf(columns, viewer)},
      json_build_object(
        'projectAccessLevel', (select m.access_level from members m
          where m.source_type = 'Project' and m.source_id = p.id and m.user_id = ${p.userId} and m.requested_at is null),
        'groupAccessLevel', nullif((select ${groupAccessLevel(viewer, 'pg')} from namespaces pg
          where pg.id = p.namespace_id and pg.kind = 'group'), 0)) as permissions,
      ${projectVisibleTo(viewer)} as visible
    from projects p where ${match}`;
});

/** `CheckAccess`: see `ProjectsReadModel.accessSummary`. */
const projectAccessSummary = byProjectKey<'summary', { userId: number }, ProjectAccessSummary & { visible: boolean }>(
  (_shape, p, match) => {
    const viewer = userRowFacts('v');
    return sql`select p.id, p.name, p.path, p.description, p.visibility, p.archived, p.default_branch as "defaultBranch",
      p.creator_id as "creatorId", ${sql.raw(isoTimestamp('p.created_at'))} as "createdAt", p.merge_method as "mergeMethod",
      p.forked_from_project_id as "forkedFromProjectId",
      p.only_allow_merge_if_pipeline_succeeds as "onlyAllowMergeIfPipelineSucceeds",
      p.allow_merge_on_skipped_pipeline as "allowMergeOnSkippedPipeline",
      p.only_allow_merge_if_all_discussions_are_resolved as "onlyAllowMergeIfAllDiscussionsAreResolved",
      ${sql.raw(jsonObject({ ...NAMESPACE_FIELDS, traversalIds: 'pn.traversal_ids', fullName: NAMESPACE_FULL_NAME }))} as namespace,
      ${projectAccessLevel(viewer)} as "accessLevel", ${viewer.isAdmin} as "isAdmin", ${projectVisibleTo(viewer)} as visible
    from projects p join namespaces pn on pn.id = p.namespace_id
      left join users v on v.id = ${p.userId} and v.state = 'active'
    where ${match}`;
  },
);

/**
 * The columns of projects by id, in the ids' order (`ProjectsReadModel.#byIds`). Its estimates do
 * not depend on its values, so the plan cache keeps the generic plan: the ids in a scalar
 * subquery count as ten rows however many there are (a custom plan for 9 ids cost less than the
 * generic plan, so every execution was planned anew), and visibility is read as a column, not
 * filtered, since a custom plan's selectivity for the viewer's visibilities differs from the
 * generic plan's.
 */
const projectsByIds = compiledStatement<ProjectsShape<ColumnsRead>, { userId: number; ids: number[] }, { visible: boolean }>((shape, p) => {
  const { viewer, columns } = readShape(shape, p.userId);
  return sql`select ${columnsOf(columns, viewer)}, ${projectVisibleTo(viewer)} as visible
    from unnest((select ${p.ids}::integer[])) with ordinality as listed (id, position) join projects p on p.id = listed.id
    order by listed.position`;
});

/**
 * Projects as GitLab's project views show them, read without entities: a page of a list, its ids
 * and capped total in one statement, then each row's columns (namespace, owner, counts, and the
 * fork source and shares the viewer sees) by key in a second; a project's details, with the
 * viewer's visibility and permissions, in one statement.
 */
export class ProjectsReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  /**
   * `GET /projects/:id` of a project the viewer may see, with their own membership and their
   * access to its group (`permissions`); undefined when there is none or they may not see it.
   */
  async details(options: {
    viewer: Viewer;
    idOrPath: number | string;
    customAttributes?: boolean;
  }): Promise<ProjectDetailsRow | undefined> {
    const { viewer } = options;
    const key = projectKey(options.idOrPath);
    if (!key) return undefined;
    const shape = projectsShape(viewer, options.customAttributes === true ? 'full with custom attributes' : 'full');
    const [row] = await projectDetails(this.#db, shape, { userId: userIdOf(viewer) }, key);
    if (!row?.visible) return undefined;
    const { visible: _visible, ...project } = row;
    return project;
  }

  /**
   * A project as other services' access checks see it (`CheckAccess`): its summary's columns, its
   * namespace with ancestry and full name, and the user's access level and whether they are an
   * administrator, in one statement that also reads the user (`userId`; 0, or one not active, is
   * anonymous); undefined when there is no such project or the user may not see it.
   * `alsoVisible`: makes a project the user cannot see visible all the same (a deploy token's own).
   */
  async accessSummary(
    userId: number,
    idOrPath: number | string,
    alsoVisible?: (project: { id: number; namespaceIds: number[] }) => boolean,
  ): Promise<ProjectAccessSummary | undefined> {
    const key = projectKey(idOrPath);
    if (!key) return undefined;
    const [row] = await projectAccessSummary(this.#db, 'summary', { userId: userId > MAX_ID ? 0 : userId }, key);
    if (!row) return undefined;
    if (!row.visible && !alsoVisible?.({ id: row.id, namespaceIds: row.namespace.traversalIds })) return undefined;
    const { visible: _visible, ...summary } = row;
    return summary;
  }

  /** Whether the viewer may see the project: its id, or undefined. */
  async visibleId(viewer: Viewer, idOrPath: number | string): Promise<number | undefined> {
    const match = projectMatch(idOrPath);
    if (!match) return undefined;
    const { rows } = await sql<{ id: number }>`select p.id from projects p where ${match} and ${projectVisibleTo(viewer)}`.execute(
      this.#db,
    );
    return rows[0]?.id;
  }

  /**
   * A page of a project list: its ids and capped total in one statement, then the page's columns
   * by key in a second (`#projectsByIds`).
   */
  async list(options: {
    viewer: Viewer;
    filter: ProjectFilter;
    order: { by: ProjectOrder; sort: 'asc' | 'desc'; search?: string };
    window: PageWindow;
    read: ProjectListRead;
  }): Promise<ProjectListPage> {
    const filter = projectConditions(options.viewer, options.filter);
    const page = await readPage<{ id: number }>(this.#db, {
      ...(isUnfiltered(options.filter)
        ? { total: visibleProjectCount(options.viewer) }
        : { matching: visibleProjectIds(options.viewer, filter) }),
      rows: sql`select p.id from projects p where ${projectVisibleTo(options.viewer)} and ${filter} order by ${orderBy(options.order)}`,
      window: options.window,
    });
    return { ...page, ...(await this.#projectsByIds(options.viewer, page.items, options.read)) };
  }

  /** Keyset pagination by id: the projects after `keyset.afterId` in `keyset.sort` order. */
  async listAfter(options: { viewer: Viewer; filter: ProjectFilter; keyset: Keyset; read: ProjectListRead }): Promise<ProjectKeysetPage> {
    const { keyset } = options;
    const where = sql`${projectVisibleTo(options.viewer)} and ${projectConditions(options.viewer, options.filter)}`;
    const after = keyset.afterId === undefined ? sql`true` : sql`p.id ${sql.raw(keyset.sort === 'desc' ? '<' : '>')} ${keyset.afterId}`;
    const page = await readKeysetPage<{ id: number }>(this.#db, {
      rows: sql`select p.id from projects p where ${where} and ${after} order by p.id ${sql.raw(keyset.sort === 'desc' ? 'desc' : 'asc')}`,
      limit: keyset.limit,
    });
    return { ...page, ...(await this.#projectsByIds(options.viewer, page.items, options.read)) };
  }

  /**
   * The view's columns of the projects a page found, in the page's order, read by key in a
   * statement of their own: the namespace, owner and counts subqueries run for the page's rows
   * only, however deep its offset, and the statement's plan (by primary key, whatever the
   * window) is prepared once and kept, where the page's own is made again for every request.
   * A project deleted, or hidden from the viewer, since the page was read is left out.
   */
  async #projectsByIds(viewer: Viewer, page: Array<{ id: number }>, read: ProjectListRead): Promise<ProjectRows> {
    const ids = page.map((row) => row.id);
    if (read.view === 'simple') return { items: await this.#byIds<SimpleProject>(viewer, ids, read), view: 'simple' };
    return { items: await this.#byIds<ListedProject>(viewer, ids, read), view: 'full' };
  }

  /**
   * `projectsByIds`, the projects the viewer may see. The rows keep the visible column: copying a
   * row's 60 others into a new object without it allocated 5 KB per row.
   */
  async #byIds<Row>(viewer: Viewer, ids: number[], read: ProjectListRead): Promise<Row[]> {
    if (ids.length === 0) return [];
    const rows = await projectsByIds(this.#db, projectsShape(viewer, columnsRead(read)), { userId: userIdOf(viewer), ids });
    return rows.filter((row) => row.visible) as Row[];
  }
}

/**
 * What group details embed, as one JSON column of the group's own statement (`groupId`: its id,
 * a column of that statement; `viewer`: the facts that statement is compiled with): `own`, the
 * newest `limit` projects in the group the viewer may see, and `shared`, the newest `limit` shared
 * with it (GitLab's `GroupProjectsFinder` unsorted: id descending), each an array of full-view
 * rows (`ListedProject`).
 */
export function groupDetailsProjects(viewer: ViewerFacts, groupId: RawBuilder<number>, limit: number): RawBuilder<unknown> {
  const columns = columnsOf('full', viewer);
  const visible = projectVisibleTo(viewer);
  // The ids first, then their columns by key: the columns' per-row subqueries cost the plan as many rows as `any(array(...))`
  // estimates (ten), whatever the viewer's parameters, so a generic plan costs what a custom one does and is kept.
  const newest = (where: RawBuilder<unknown>) => sql`coalesce((select json_agg(listed order by listed.id desc)
    from (select ${columns} from projects p where p.id = any(array(
      select p.id from projects p where ${where} and ${visible} order by p.id desc limit ${sql.lit(limit)}))) listed), '[]')`;
  return sql`json_build_object('own', ${newest(sql`p.namespace_id = ${groupId}`)},
    'shared', ${newest(sql`p.id in (${sharedWith(groupId)})`)})`;
}

function sharedWith(groupId: number | RawBuilder<number>): RawBuilder<unknown> {
  return sql`select l.project_id from project_group_links l
    where l.group_id = ${groupId} and (l.expires_at is null or l.expires_at > current_date)`;
}

const ORDER_COLUMNS: Record<Exclude<ProjectOrder, 'similarity' | 'star_count'>, string> = {
  id: 'p.id',
  name: 'lower(p.name)',
  path: 'lower(p.path)',
  created_at: 'p.created_at',
  updated_at: 'p.updated_at',
  last_activity_at: 'p.last_activity_at',
};

/**
 * `similarity` ranks by trigram similarity to the search, weighting path over name over
 * description as GitLab does, ignores `sort`, and falls back to name without a search.
 */
function orderBy(order: { by: ProjectOrder; sort: 'asc' | 'desc'; search?: string }): RawBuilder<unknown> {
  const direction = sql.raw(order.sort === 'asc' ? 'asc' : 'desc');
  if (order.by === 'similarity') {
    if (!order.search) return sql`lower(p.name) asc, p.id asc`;
    const search = order.search;
    return sql`(similarity(p.path, ${search}) + 0.7 * similarity(p.name, ${search}) + 0.2 * similarity(coalesce(p.description, ''), ${search})) desc, p.id desc`;
  }
  if (order.by === 'star_count') {
    return sql`(select count(*) from project_stars s where s.project_id = p.id) ${direction}, p.id ${direction}`;
  }
  return sql`${sql.raw(ORDER_COLUMNS[order.by])} ${direction}, p.id ${direction}`;
}

/** Whether a list keeps every project the viewer sees, whose number `list_counts` maintains. */
function isUnfiltered(filter: ProjectFilter): boolean {
  return Object.values(filter).every((value) => value === undefined);
}

/**
 * Which projects (alias `p`) a project list holds beyond the viewer's visibility, which the count
 * (`visibleProjectIds`) and the page (`projectVisibleTo`) each apply in their own form.
 */
function projectConditions(viewer: Viewer, filter: ProjectFilter): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [sql`true`];
  if (filter.namespaceIds !== undefined) {
    const inNamespaces = sql`p.namespace_id = any(${filter.namespaceIds}::integer[])`;
    conditions.push(
      filter.orSharedWithGroupId === undefined
        ? inNamespaces
        : sql`(${inNamespaces} or p.id in (${sharedWith(filter.orSharedWithGroupId)}))`,
    );
  }
  if (filter.sharedWithGroupId !== undefined) conditions.push(sql`p.id in (${sharedWith(filter.sharedWithGroupId)})`);
  if (filter.archived !== undefined) conditions.push(sql`p.archived = ${filter.archived}`);
  if (filter.visibility !== undefined) conditions.push(sql`p.visibility = ${filter.visibility}`);
  if (filter.search) {
    const pattern = likePattern(filter.search);
    const namespaceMatch = filter.searchNamespaces
      ? sql` or (select n.full_path from namespaces n where n.id = p.namespace_id) || '/' || p.path ilike ${pattern}`
      : sql``;
    conditions.push(sql`(p.name ilike ${pattern} or p.path ilike ${pattern} or p.description ilike ${pattern}${namespaceMatch})`);
  }
  if (filter.minAccessLevel !== undefined) {
    conditions.push(projectWithAccess(viewer, filter.minAccessLevel));
  }
  if (filter.starredBy !== undefined) {
    conditions.push(sql`p.id in (select project_id from project_stars where user_id = ${filter.starredBy})`);
  }
  if (filter.withIssuesEnabled) conditions.push(sql`p.issues_access_level <> 'disabled'`);
  if (filter.withMergeRequestsEnabled) conditions.push(sql`p.merge_requests_access_level <> 'disabled'`);
  if (filter.withSecurityReports) conditions.push(sql`false`);
  if (filter.forkedFromProjectId !== undefined) conditions.push(sql`p.forked_from_project_id = ${filter.forkedFromProjectId}`);
  if (filter.topics && filter.topics.length > 0) conditions.push(sql`p.topics @> ${filter.topics}::text[]`);
  if (filter.idAfter !== undefined) conditions.push(sql`p.id > ${filter.idAfter}`);
  if (filter.idBefore !== undefined) conditions.push(sql`p.id < ${filter.idBefore}`);
  if (filter.lastActivityAfter) conditions.push(sql`p.last_activity_at > ${filter.lastActivityAfter}`);
  if (filter.lastActivityBefore) conditions.push(sql`p.last_activity_at < ${filter.lastActivityBefore}`);
  for (const [key, value] of Object.entries(filter.customAttributes ?? {})) {
    conditions.push(
      sql`exists (select 1 from project_custom_attributes c where c.project_id = p.id and c.key = ${key} and c.value = ${value})`,
    );
  }
  return sql.join(conditions, sql` and `);
}
