import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException, type EntityDictionary } from '@mikro-orm/core';
import { sql, type RawBuilder } from 'kysely';
import { FieldValidationError } from '@platform/errors';
import { likePattern, mapPage, readKeysetPage, readPage, translateDbError, type Page, type PageWindow } from '@platform/db';
import type { Visibility } from '../access/namespace.entity.ts';
import type { NamespaceStore } from '../access/namespaces-store.ts';
import { groupVisibleTo, listedProjectVisibleTo, projectVisibleTo, projectWithAccess, type Viewer } from '../access/access-sql.ts';
import type { SharedGroup } from '../access/namespace-views.ts';
import { MAX_ID, type Keyset, type KeysetPage } from '../access/sql-helpers.ts';
import { Project, ProjectGroupLink } from '../access/project.entity.ts';
import { ProjectStar } from './project-star.entity.ts';

export type NewProject = Pick<Project, 'namespaceId' | 'name' | 'path'> & Partial<Omit<Project, 'id' | 'createdAt' | 'updatedAt'>>;

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

export interface ProjectStore {
  findById(id: number): Promise<Project | null>;
  findByIds(ids: number[]): Promise<Project[]>;
  /** An integer id, or `namespace/full/path/project` compared case-insensitively. */
  findByIdOrPath(idOrPath: number | string): Promise<Project | null>;
  /** Inserts now, so that a taken name or path surfaces here as a validation error. */
  insert(project: NewProject): Promise<Project>;
  flush(): Promise<void>;
  /** Projects in these namespaces, for cascading deletes and details. */
  inNamespaces(namespaceIds: number[]): Promise<Project[]>;
  countInNamespace(namespaceId: number): Promise<number>;
  remove(projects: Project[]): Promise<void>;
  list(
    viewer: Viewer,
    filter: ProjectFilter,
    order: { by: ProjectOrder; sort: 'asc' | 'desc'; search?: string },
    window: PageWindow,
  ): Promise<Page<Project>>;
  /** Keyset pagination by id: the projects after `keyset.afterId` in `keyset.sort` order. */
  listAfter(viewer: Viewer, filter: ProjectFilter, keyset: Keyset): Promise<KeysetPage<Project>>;
  starCounts(projectIds: number[]): Promise<Map<number, number>>;
  /** How many projects were forked from each of these (GitLab's `forks_count`), whoever may see the forks. */
  forkCounts(projectIds: number[]): Promise<Map<number, number>>;
  star(userId: number, projectId: number): Promise<boolean>;
  unstar(userId: number, projectId: number): Promise<boolean>;
  /** Shares of these projects with groups the viewer may see, oldest first, by project id. */
  visibleSharesOf(viewer: Viewer, projectIds: number[]): Promise<Map<number, SharedGroup[]>>;
  /**
   * What group details list: the first `limit` visible projects in the group and the first
   * `limit` shared with it, by id, in one statement.
   */
  ofGroupDetails(viewer: Viewer, groupId: number, limit: number): Promise<{ own: Project[]; shared: Project[] }>;
  findShare(projectId: number, groupId: number): Promise<ProjectGroupLink | null>;
  insertShare(link: Pick<ProjectGroupLink, 'projectId' | 'groupId' | 'groupAccess' | 'expiresAt'>): Promise<ProjectGroupLink>;
  removeShare(link: ProjectGroupLink): Promise<void>;
  /** Projects marked for deletion at or before `cutoff`. */
  markedBefore(cutoff: Date): Promise<Project[]>;
  /** Records where review keeps the project's repository now (nothing when the project is gone). */
  setRepositoryStorage(projectId: number, storage: string): Promise<void>;
}

/** Taken names and paths are validation errors in GitLab, named by field. */
function translateProjectError(error: unknown): unknown {
  if (error instanceof UniqueConstraintViolationException) {
    const field = String(error.message).includes('projects_namespace_id_name_lower_key') ? 'name' : 'path';
    return new FieldValidationError({ [field]: ['has already been taken'] });
  }
  return translateDbError(error, { notFound: 'Namespace' });
}

const ORDER_COLUMNS: Record<Exclude<ProjectOrder, 'similarity' | 'star_count'>, string> = {
  id: 'p.id',
  name: 'lower(p.name)',
  path: 'lower(p.path)',
  created_at: 'p.created_at',
  updated_at: 'p.updated_at',
  last_activity_at: 'p.last_activity_at',
};

/** Projects in PostgreSQL. `em` resolves to the current unit of work. */
export class PgProjectStore implements ProjectStore {
  readonly #em: EntityManager;
  readonly #namespaces: NamespaceStore;

  constructor(options: { em: EntityManager; namespaces: NamespaceStore }) {
    this.#em = options.em;
    this.#namespaces = options.namespaces;
  }

  markedBefore(cutoff: Date): Promise<Project[]> {
    return this.#em.find(Project, { markedForDeletionAt: { $lte: cutoff } }, { orderBy: { id: 'asc' } });
  }

  async setRepositoryStorage(projectId: number, storage: string): Promise<void> {
    if (projectId > MAX_ID) return;
    await this.#em.fork().nativeUpdate(Project, { id: projectId }, { repositoryStorage: storage });
  }

  findById(id: number): Promise<Project | null> {
    if (id > MAX_ID) return Promise.resolve(null);
    return this.#em.findOne(Project, { id });
  }

  findByIds(ids: number[]): Promise<Project[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.#em.find(Project, { id: { $in: [...new Set(ids)] } });
  }

  async findByIdOrPath(idOrPath: number | string): Promise<Project | null> {
    if (typeof idOrPath === 'number') return this.findById(idOrPath);
    const slash = idOrPath.lastIndexOf('/');
    if (slash <= 0) return null;
    const namespace = await this.#namespaces.findByFullPath(idOrPath.slice(0, slash));
    if (!namespace) return null;
    const rows = await this.#em.execute<Array<{ id: number }>>(
      'select id from projects where namespace_id = ? and lower(path) = lower(?)',
      [namespace.id, idOrPath.slice(slash + 1)],
    );
    const id = rows[0]?.id;
    return id === undefined ? null : this.findById(id);
  }

  async insert(project: NewProject): Promise<Project> {
    const entity = this.#em.create(Project, project);
    await this.flush();
    return entity;
  }

  async flush(): Promise<void> {
    try {
      await this.#em.flush();
    } catch (error) {
      throw translateProjectError(error);
    }
  }

  inNamespaces(namespaceIds: number[]): Promise<Project[]> {
    if (namespaceIds.length === 0) return Promise.resolve([]);
    return this.#em.find(Project, { namespaceId: { $in: namespaceIds } }, { orderBy: { id: 'asc' } });
  }

  countInNamespace(namespaceId: number): Promise<number> {
    return this.#em.count(Project, { namespaceId });
  }

  async remove(projects: Project[]): Promise<void> {
    if (projects.length === 0) return;
    const ids = projects.map((project) => project.id);
    // Memberships and access requests reference their source without a foreign key.
    const kysely = this.#em.getKysely();
    await sql`delete from members where source_type = 'Project' and source_id = any(${ids}::integer[])`.execute(kysely);
    await sql`delete from projects where id = any(${ids}::integer[])`.execute(kysely);
    for (const project of projects) this.#em.getUnitOfWork().unsetIdentity(project);
  }

  async list(
    viewer: Viewer,
    filter: ProjectFilter,
    order: { by: ProjectOrder; sort: 'asc' | 'desc'; search?: string },
    window: PageWindow,
  ): Promise<Page<Project>> {
    const where = projectConditions(viewer, filter);
    const page = await readPage<EntityDictionary<Project>>(this.#em.getKysely(), {
      matching: sql`select 1 from projects p where ${where}`,
      rows: sql`select p.* from projects p where ${where} order by ${orderBy(order)}`,
      window,
    });
    return mapPage(page, (rows) => rows.map((row) => this.#em.map(Project, row)));
  }

  async listAfter(viewer: Viewer, filter: ProjectFilter, keyset: Keyset): Promise<KeysetPage<Project>> {
    const where = projectConditions(viewer, filter);
    const after = keyset.afterId === undefined ? sql`true` : sql`p.id ${sql.raw(keyset.sort === 'desc' ? '<' : '>')} ${keyset.afterId}`;
    const page = await readKeysetPage<EntityDictionary<Project>>(this.#em.getKysely(), {
      rows: sql`select p.* from projects p where ${where} and ${after} order by p.id ${sql.raw(keyset.sort === 'desc' ? 'desc' : 'asc')}`,
      limit: keyset.limit,
    });
    return { items: page.items.map((row) => this.#em.map(Project, row)), hasMore: page.hasMore };
  }

  async starCounts(projectIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>(projectIds.map((id) => [id, 0]));
    if (projectIds.length === 0) return counts;
    const { rows } = await sql<{ project_id: number; count: string }>`select project_id, count(*) as count
      from project_stars where project_id = any(${projectIds}::integer[]) group by project_id`.execute(this.#em.getKysely());
    for (const row of rows) counts.set(row.project_id, Number(row.count));
    return counts;
  }

  async forkCounts(projectIds: number[]): Promise<Map<number, number>> {
    const counts = new Map<number, number>(projectIds.map((id) => [id, 0]));
    if (projectIds.length === 0) return counts;
    const { rows } = await sql<{ project_id: number; count: string }>`select forked_from_project_id as project_id, count(*) as count
      from projects where forked_from_project_id = any(${projectIds}::integer[]) group by forked_from_project_id`.execute(
      this.#em.getKysely(),
    );
    for (const row of rows) counts.set(row.project_id, Number(row.count));
    return counts;
  }

  async star(userId: number, projectId: number): Promise<boolean> {
    const rows = await this.#em.execute<Array<{ project_id: number }>>(
      'insert into project_stars (user_id, project_id) values (?, ?) on conflict do nothing returning project_id',
      [userId, projectId],
    );
    return rows.length > 0;
  }

  async unstar(userId: number, projectId: number): Promise<boolean> {
    return (await this.#em.nativeDelete(ProjectStar, { userId, projectId })) > 0;
  }

  async visibleSharesOf(viewer: Viewer, projectIds: number[]): Promise<Map<number, SharedGroup[]>> {
    const byProject = new Map<number, SharedGroup[]>(projectIds.map((id) => [id, []]));
    if (projectIds.length === 0) return byProject;
    const { rows } = await sql<SharedGroup & { projectId: number }>`
      select l.project_id as "projectId", g.id as "groupId", g.name as "groupName", g.full_path as "groupFullPath",
        l.group_access as "groupAccess", l.expires_at as "expiresAt"
      from project_group_links l join namespaces g on g.id = l.group_id and g.kind = 'group'
      where l.project_id = any(${projectIds}::integer[]) and ${groupVisibleTo(viewer, 'g')}
      order by l.id`.execute(this.#em.getKysely());
    for (const { projectId, ...share } of rows) byProject.get(projectId)?.push(share);
    return byProject;
  }

  async ofGroupDetails(viewer: Viewer, groupId: number, limit: number): Promise<{ own: Project[]; shared: Project[] }> {
    const visible = projectVisibleTo(viewer);
    const { rows } = await sql<EntityDictionary<Project> & { shared__: boolean }>`
      (select p.*, false as shared__ from projects p where p.namespace_id = ${groupId} and ${visible} order by p.id limit ${limit})
      union all
      (select p.*, true as shared__ from projects p where p.id in (${sharedWith(groupId)}) and ${visible} order by p.id limit ${limit})`.execute(
      this.#em.getKysely(),
    );
    const own: Project[] = [];
    const shared: Project[] = [];
    for (const { shared__: isShared, ...columns } of rows) (isShared ? shared : own).push(this.#em.map(Project, columns));
    return { own, shared };
  }

  findShare(projectId: number, groupId: number): Promise<ProjectGroupLink | null> {
    return this.#em.findOne(ProjectGroupLink, { projectId, groupId });
  }

  async insertShare(link: Pick<ProjectGroupLink, 'projectId' | 'groupId' | 'groupAccess' | 'expiresAt'>): Promise<ProjectGroupLink> {
    const entity = this.#em.create(ProjectGroupLink, link);
    try {
      await this.#em.flush();
    } catch (error) {
      throw translateDbError(error, { conflict: 'Project already shared with this group', notFound: 'Group' });
    }
    return entity;
  }

  async removeShare(link: ProjectGroupLink): Promise<void> {
    this.#em.remove(link);
    await this.#em.flush();
  }
}

function sharedWith(groupId: number): RawBuilder<unknown> {
  return sql`select l.project_id from project_group_links l
    where l.group_id = ${groupId} and (l.expires_at is null or l.expires_at > current_date)`;
}

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

/** Which projects (alias `p`) a project list holds; access is a semi-join on `project_authorizations`. */
function projectConditions(viewer: Viewer, filter: ProjectFilter): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [listedProjectVisibleTo(viewer)];
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
