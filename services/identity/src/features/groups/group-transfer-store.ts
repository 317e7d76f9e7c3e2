import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { sql } from 'kysely';
import { RefusedError } from '@platform/errors';
import { VISIBILITIES, VISIBILITY_RANK, type Group, type Visibility } from '../access/namespace.entity.ts';

/** GitLab's sentence when the new parent already holds something at the group's path. */
export const PATH_TAKEN = 'Transfer failed: The parent group already has a subgroup or a project with the same path.';

export interface GroupTransferStore {
  /**
   * Whether a namespace directly under `parentId` (at the top level: a group or a user's
   * namespace) or a project of that parent has `path`, compared case-insensitively.
   */
  pathTakenUnder(parentId: number | null, path: string): Promise<boolean>;
  /** Whether the group has a direct, active Owner membership. */
  hasDirectOwner(groupId: number): Promise<boolean>;
  /**
   * Moves the group and everything below it under `parent` (null: the top level): parent, full
   * paths and traversal ids, and visibilities lowered to the parent's where they exceed it, in
   * the current transaction.
   */
  move(group: Group, parent: Group | null): Promise<void>;
}

/** Raw statements fail with the driver's error (SQLSTATE 23505), the entity manager with its own. */
function isUniqueViolation(error: unknown): boolean {
  return error instanceof UniqueConstraintViolationException || (error as { code?: unknown } | null)?.code === '23505';
}

/** Group transfers in PostgreSQL. `em` resolves to the current unit of work. */
export class PgGroupTransferStore implements GroupTransferStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  async pathTakenUnder(parentId: number | null, path: string): Promise<boolean> {
    const parentMatch = parentId === null ? sql`n.parent_id is null` : sql`n.parent_id = ${parentId}`;
    const projects =
      parentId === null
        ? sql`false`
        : sql`exists (select 1 from projects p where p.namespace_id = ${parentId} and lower(p.path) = lower(${path}))`;
    const { rows } = await sql<{ taken: boolean }>`select exists (
        select 1 from namespaces n where ${parentMatch} and lower(n.path) = lower(${path})
      ) or ${projects} as taken`.execute(this.#em.getKysely());
    return rows[0]?.taken === true;
  }

  async hasDirectOwner(groupId: number): Promise<boolean> {
    const { rows } = await sql<{ found: boolean }>`select exists (
        select 1 from members m join users u on u.id = m.user_id and u.state = 'active'
        where m.source_type = 'Group' and m.source_id = ${groupId} and m.access_level = 50
          and m.requested_at is null and (m.expires_at is null or m.expires_at > current_date)
      ) as found`.execute(this.#em.getKysely());
    return rows[0]?.found === true;
  }

  async move(group: Group, parent: Group | null): Promise<void> {
    const kysely = this.#em.getKysely();
    const oldFullPath = group.fullPath;
    const depth = group.traversalIds.length;
    group.parentId = parent?.id ?? null;
    group.fullPath = parent ? `${parent.fullPath}/${group.path}` : group.path;
    group.traversalIds = [...(parent?.traversalIds ?? []), group.id];
    // A group is never more visible than its parent, nor a project than its group: GitLab lowers them.
    const cap = parent && VISIBILITY_RANK[parent.visibility as Visibility] < VISIBILITY_RANK[group.visibility as Visibility];
    if (cap) group.visibility = parent.visibility;
    try {
      await this.#em.flush();
      await sql`update namespaces set
          full_path = ${group.fullPath} || substr(full_path, ${oldFullPath.length + 1}),
          traversal_ids = ${group.traversalIds}::integer[] || traversal_ids[${depth + 1}:],
          updated_at = now()
        where traversal_ids @> array[${group.id}]::integer[] and id <> ${group.id}`.execute(kysely);
    } catch (error) {
      // A path taken concurrently, between the check and this statement.
      if (isUniqueViolation(error)) throw new RefusedError(PATH_TAKEN);
      throw error;
    }
    if (cap) {
      const allowed = VISIBILITIES.filter((candidate) => VISIBILITY_RANK[candidate] <= VISIBILITY_RANK[parent.visibility as Visibility]);
      await sql`update namespaces set visibility = ${parent.visibility}, updated_at = now()
        where traversal_ids @> array[${group.id}]::integer[] and visibility <> all(${allowed}::text[])`.execute(kysely);
      await sql`update projects set visibility = ${parent.visibility}, updated_at = now()
        where namespace_id in (select id from namespaces where traversal_ids @> array[${group.id}]::integer[])
          and visibility <> all(${allowed}::text[])`.execute(kysely);
    }
  }
}
