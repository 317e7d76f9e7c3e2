/**
 * Effective access and visibility in SQL, shared by every query that lists or checks groups and
 * projects, so the rules live in one place.
 *
 * A user's access to a group is the highest of their memberships of the group and its ancestors,
 * and of the groups it (or an ancestor) is shared with, capped by the share's level. Access to a
 * project is the highest of a project membership, access to its namespace's group, and access
 * to a group the project is shared with, capped by the share's level. Expired memberships and
 * shares, and pending access requests, grant nothing.
 */
import { sql, type RawBuilder } from 'kysely';

/** Who is looking: an anonymous caller, or a user (administrators see everything). */
export type Viewer = { kind: 'anonymous' } | { kind: 'user'; userId: number; username: string; isAdmin: boolean; external: boolean };

export const ANONYMOUS: Viewer = { kind: 'anonymous' };

function userIdOf(viewer: Viewer): number {
  return viewer.kind === 'user' ? viewer.userId : 0;
}

const activeMember = (alias: string) =>
  sql.raw(`${alias}.requested_at is null and (${alias}.expires_at is null or ${alias}.expires_at > current_date)`);
const activeLink = (alias: string) => sql.raw(`(${alias}.expires_at is null or ${alias}.expires_at > current_date)`);

/**
 * Common table expressions for `viewer`: `group_member_access (id, access_level)` from
 * memberships, `group_access` adding group shares, `project_access`, and `related_groups`, the
 * groups a user can see because they belong to them or to something inside them.
 */
export function accessCtes(viewer: Viewer): RawBuilder<unknown> {
  const userId = userIdOf(viewer);
  return sql`
    group_member_access (id, access_level) as (
      select g.id, max(m.access_level)
      from members m
      join namespaces g on g.traversal_ids @> array[m.source_id]
      where m.source_type = 'Group' and m.user_id = ${userId} and ${activeMember('m')}
      group by g.id
    ),
    group_access (id, access_level) as (
      select id, max(access_level) from (
        select id, access_level from group_member_access
        union all
        select g.id, least(l.group_access, a.access_level)
        from group_member_access a
        join group_group_links l on l.shared_with_group_id = a.id and ${activeLink('l')}
        join namespaces g on g.traversal_ids @> array[l.shared_group_id]
      ) levels
      group by id
    ),
    project_access (id, access_level) as (
      select id, max(access_level) from (
        select m.source_id as id, m.access_level
        from members m
        where m.source_type = 'Project' and m.user_id = ${userId} and ${activeMember('m')}
        union all
        select p.id, a.access_level from group_access a join projects p on p.namespace_id = a.id
        union all
        select l.project_id, least(l.group_access, a.access_level)
        from group_member_access a
        join project_group_links l on l.group_id = a.id and ${activeLink('l')}
      ) levels
      group by id
    ),
    related_groups (id) as (
      select unnest(g.traversal_ids) from group_access a join namespaces g on g.id = a.id
      union
      select unnest(n.traversal_ids)
      from project_access a
      join projects p on p.id = a.id
      join namespaces n on n.id = p.namespace_id and n.kind = 'group'
    )`;
}

/** The visibility levels `viewer` sees without any membership. */
function openVisibilities(viewer: Viewer): string[] {
  if (viewer.kind === 'anonymous') return ['public'];
  return viewer.external ? ['public'] : ['public', 'internal'];
}

/** True for a group (alias `alias` of `namespaces`) that `viewer` may see; needs `accessCtes`. */
export function groupVisibleTo(viewer: Viewer, alias = 'n'): RawBuilder<unknown> {
  if (viewer.kind === 'user' && viewer.isAdmin) return sql`true`;
  const visibility = sql.ref(`${alias}.visibility`);
  if (viewer.kind === 'anonymous') return sql`${visibility} = 'public'`;
  return sql`(${visibility} = any(${openVisibilities(viewer)}::text[]) or ${sql.ref(`${alias}.id`)} in (select id from related_groups))`;
}

/** True for a project (alias `alias` of `projects`) that `viewer` may see; needs `accessCtes`. */
export function projectVisibleTo(viewer: Viewer, alias = 'p'): RawBuilder<unknown> {
  if (viewer.kind === 'user' && viewer.isAdmin) return sql`true`;
  const visibility = sql.ref(`${alias}.visibility`);
  if (viewer.kind === 'anonymous') return sql`${visibility} = 'public'`;
  return sql`(${visibility} = any(${openVisibilities(viewer)}::text[]) or ${sql.ref(`${alias}.id`)} in (select id from project_access))`;
}

/** The viewer's effective access level on a group (alias `alias`), 0 without any; needs `accessCtes`. */
export function groupAccessLevel(alias = 'n'): RawBuilder<number> {
  return sql<number>`coalesce((select access_level from group_access where id = ${sql.ref(`${alias}.id`)}), 0)`;
}

/** The viewer's effective access level on a project (alias `alias`), 0 without any; needs `accessCtes`. */
export function projectAccessLevel(alias = 'p'): RawBuilder<number> {
  return sql<number>`coalesce((select access_level from project_access where id = ${sql.ref(`${alias}.id`)}), 0)`;
}
