import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type RawBuilder } from 'kysely';
import { UniqueConstraintViolationException, type EntityDictionary } from '@mikro-orm/core';
import { FieldValidationError } from '@platform/errors';
import { likePattern, mapPage, readKeysetPage, readPage, translateDbError, type Page, type PageWindow } from '@platform/db';
import { Namespace, type Group } from '../access/namespace.entity.ts';
import { accessCtes, groupRelatedTo, groupVisibleTo, groupWithAccess, listedGroupVisibleTo, type Viewer } from '../access/access-sql.ts';
import { GroupGroupLink } from './group.entity.ts';
import type { SharedGroup } from '../access/namespace-views.ts';
import { asGroups, PgGroupLookup, type GroupLookup } from '../access/group-lookup.ts';
import type { Keyset, KeysetPage } from '../access/sql-helpers.ts';

export type NewGroup = Pick<Namespace, 'name' | 'path'> &
  Partial<Omit<Namespace, 'id' | 'kind' | 'fullPath' | 'traversalIds' | 'ownerId' | 'createdAt' | 'updatedAt'>>;

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

export const GROUP_ORDERS = ['name', 'path', 'id'] as const;
export type GroupOrder = (typeof GROUP_ORDERS)[number];

export interface GroupStore extends GroupLookup {
  /** An integer id, or a full path compared case-insensitively. */
  findByIdOrPath(idOrPath: number | string): Promise<Group | null>;
  findByIds(ids: number[]): Promise<Group[]>;
  /** Inserts now, under `parent` when given, so that a taken path surfaces here as a ConflictError. */
  insert(group: NewGroup, parent: Group | null): Promise<Group>;
  /** Renames a group's path, carrying the full paths of its descendants along. */
  changePath(group: Group, path: string): Promise<void>;
  flush(): Promise<void>;
  remove(groups: Group[]): Promise<void>;
  list(viewer: Viewer, filter: GroupFilter, order: { by: GroupOrder; sort: 'asc' | 'desc' }, window: PageWindow): Promise<Page<Group>>;
  /** Keyset pagination by id: the groups after `keyset.afterId` in `keyset.sort` order. */
  listAfter(viewer: Viewer, filter: GroupFilter, keyset: Keyset): Promise<KeysetPage<Group>>;
  /** Whether any descendant group or project of `group` is more visible than `rank` allows. */
  hasChildMoreVisibleThan(group: Group, visibilities: string[]): Promise<boolean>;
  /** Shares of `groupId` with groups the viewer may see, oldest first, as `shared_with_groups` shows them. */
  visibleSharesOf(viewer: Viewer, groupId: number): Promise<SharedGroup[]>;
  findShare(sharedGroupId: number, sharedWithGroupId: number): Promise<GroupGroupLink | null>;
  insertShare(link: Pick<GroupGroupLink, 'sharedGroupId' | 'sharedWithGroupId' | 'groupAccess' | 'expiresAt'>): Promise<GroupGroupLink>;
  removeShare(link: GroupGroupLink): Promise<void>;
}

/** A path another group or user already has is a validation error in GitLab, not a conflict. */
function translateGroupError(error: unknown): unknown {
  if (error instanceof UniqueConstraintViolationException) return new FieldValidationError({ path: ['has already been taken'] });
  return translateDbError(error);
}

/** Groups (namespaces of kind 'group') in PostgreSQL. `em` resolves to the current unit of work. */
export class PgGroupStore extends PgGroupLookup implements GroupStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    super(em);
    this.#em = em;
  }

  async findByIdOrPath(idOrPath: number | string): Promise<Group | null> {
    if (typeof idOrPath === 'number') return this.findById(idOrPath);
    const rows = await this.#em.execute<Array<{ id: number }>>(
      "select id from namespaces where kind = 'group' and lower(full_path) = lower(?)",
      [idOrPath],
    );
    const id = rows[0]?.id;
    return id === undefined ? null : this.findById(id);
  }

  async findByIds(ids: number[]): Promise<Group[]> {
    if (ids.length === 0) return [];
    return asGroups(await this.#em.find(Namespace, { id: { $in: [...new Set(ids)] }, kind: 'group' }));
  }

  async insert(group: NewGroup, parent: Group | null): Promise<Group> {
    const [row] = await this.#em.execute<Array<{ id: number }>>("select nextval('namespaces_id_seq') as id");
    const id = Number(row?.id);
    const entity = this.#em.create(Namespace, {
      ...group,
      id,
      kind: 'group',
      parentId: parent?.id ?? null,
      fullPath: parent ? `${parent.fullPath}/${group.path}` : group.path,
      traversalIds: [...(parent?.traversalIds ?? []), id],
      ownerId: null,
    });
    try {
      await this.#em.flush();
    } catch (error) {
      throw translateGroupError(error);
    }
    return entity as Group;
  }

  async changePath(group: Group, path: string): Promise<void> {
    const oldFullPath = group.fullPath;
    const newFullPath = group.parentId === null ? path : `${oldFullPath.slice(0, oldFullPath.lastIndexOf('/'))}/${path}`;
    try {
      await this.#em.execute(
        `update namespaces set full_path = ? || substr(full_path, ?), updated_at = now()
         where traversal_ids @> array[?]::integer[] and id <> ?`,
        [newFullPath, oldFullPath.length + 1, group.id, group.id],
      );
      group.path = path;
      group.fullPath = newFullPath;
      await this.#em.flush();
    } catch (error) {
      throw translateGroupError(error);
    }
  }

  async flush(): Promise<void> {
    try {
      await this.#em.flush();
    } catch (error) {
      throw translateGroupError(error);
    }
  }

  async remove(groups: Group[]): Promise<void> {
    if (groups.length === 0) return;
    const ids = groups.map((group) => group.id);
    // Memberships and access requests reference their source without a foreign key.
    const kysely = this.#em.getKysely();
    await sql`delete from members where source_type = 'Project'
      and source_id in (select id from projects where namespace_id = any(${ids}::integer[]))`.execute(kysely);
    await sql`delete from members where source_type = 'Group' and source_id = any(${ids}::integer[])`.execute(kysely);
    await sql`delete from namespaces where id = any(${ids}::integer[])`.execute(kysely);
    for (const group of groups) this.#em.getUnitOfWork().unsetIdentity(group);
  }

  async list(
    viewer: Viewer,
    filter: GroupFilter,
    order: { by: GroupOrder; sort: 'asc' | 'desc' },
    window: PageWindow,
  ): Promise<Page<Group>> {
    const where = groupConditions(viewer, filter);
    const direction = sql.raw(order.sort === 'desc' ? 'desc' : 'asc');
    // Names and paths sort case-insensitively, whatever the database's collation.
    const column = order.by === 'id' ? sql.ref('n.id') : sql.raw(`lower(n.${order.by})`);
    const page = await readPage<EntityDictionary<Namespace>>(this.#em.getKysely(), {
      ctes: accessCtes(viewer),
      matching: sql`select 1 from namespaces n where ${where}`,
      rows: sql`select n.* from namespaces n where ${where} order by ${column} ${direction}, n.id ${direction}`,
      window,
    });
    return mapPage(page, (rows) => rows.map((row) => this.#em.map(Namespace, row) as Group));
  }

  async listAfter(viewer: Viewer, filter: GroupFilter, keyset: Keyset): Promise<KeysetPage<Group>> {
    const where = groupConditions(viewer, filter);
    const after = keyset.afterId === undefined ? sql`true` : sql`n.id ${sql.raw(keyset.sort === 'desc' ? '<' : '>')} ${keyset.afterId}`;
    const page = await readKeysetPage<EntityDictionary<Namespace>>(this.#em.getKysely(), {
      ctes: accessCtes(viewer),
      rows: sql`select n.* from namespaces n where ${where} and ${after} order by n.id ${sql.raw(keyset.sort === 'desc' ? 'desc' : 'asc')}`,
      limit: keyset.limit,
    });
    return { items: page.items.map((row) => this.#em.map(Namespace, row) as Group), hasMore: page.hasMore };
  }

  async hasChildMoreVisibleThan(group: Group, visibilities: string[]): Promise<boolean> {
    const { rows } = await sql<{ found: boolean }>`select exists (
        select 1 from namespaces
        where traversal_ids @> array[${group.id}]::integer[] and id <> ${group.id} and visibility <> all(${visibilities}::text[])
      ) or exists (
        select 1 from projects p join namespaces n on n.id = p.namespace_id
        where n.traversal_ids @> array[${group.id}]::integer[] and p.visibility <> all(${visibilities}::text[])
      ) as found`.execute(this.#em.getKysely());
    return rows[0]?.found === true;
  }

  async visibleSharesOf(viewer: Viewer, groupId: number): Promise<SharedGroup[]> {
    const { rows } = await sql<SharedGroup>`
      select g.id as "groupId", g.name as "groupName", g.full_path as "groupFullPath", l.group_access as "groupAccess",
        l.expires_at as "expiresAt"
      from group_group_links l join namespaces g on g.id = l.shared_with_group_id and g.kind = 'group'
      where l.shared_group_id = ${groupId} and ${groupVisibleTo(viewer, 'g')}
      order by l.id`.execute(this.#em.getKysely());
    return rows;
  }

  findShare(sharedGroupId: number, sharedWithGroupId: number): Promise<GroupGroupLink | null> {
    return this.#em.findOne(GroupGroupLink, { sharedGroupId, sharedWithGroupId });
  }

  async insertShare(
    link: Pick<GroupGroupLink, 'sharedGroupId' | 'sharedWithGroupId' | 'groupAccess' | 'expiresAt'>,
  ): Promise<GroupGroupLink> {
    const entity = this.#em.create(GroupGroupLink, link);
    try {
      await this.#em.flush();
    } catch (error) {
      throw translateDbError(error, { conflict: 'Group already shared with this group', notFound: 'Group' });
    }
    return entity;
  }

  async removeShare(link: GroupGroupLink): Promise<void> {
    this.#em.remove(link);
    await this.#em.flush();
  }
}

/** Which namespaces (alias `n`) a group list holds; needs `accessCtes`. */
function groupConditions(viewer: Viewer, filter: GroupFilter): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [sql`n.kind = 'group'`, listedGroupVisibleTo(viewer)];
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
  if (filter.relatedOnly) conditions.push(groupRelatedTo());
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
  return sql.join(conditions, sql` and `);
}
