import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { FieldValidationError } from '@platform/errors';
import { translateDbError } from '@platform/db';
import { Namespace, type Group } from '../access/namespace.entity.ts';
import { GroupGroupLink } from './group.entity.ts';
import { asGroups, PgGroupLookup, type GroupLookup } from '../access/group-lookup.ts';

export type NewGroup = Pick<Namespace, 'name' | 'path'> &
  Partial<Omit<Namespace, 'id' | 'kind' | 'fullPath' | 'traversalIds' | 'ownerId' | 'createdAt' | 'updatedAt'>>;

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
  /** Whether any descendant group or project of `group` is more visible than `rank` allows. */
  hasChildMoreVisibleThan(group: Group, visibilities: string[]): Promise<boolean>;
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
