/**
 * Effective access and visibility in SQL, shared by every query that lists or checks groups and
 * projects, so the rules live in one place.
 *
 * A user's access to a group is the highest of their memberships of the group and its ancestors,
 * and of the groups it (or an ancestor) is shared with, capped by the share's level (membership
 * of the shared-with group or one of its ancestors counts). Access to a project is the highest of
 * a project membership, access to its namespace's group, and membership of a group the project is
 * shared with, capped by the share's level. Expired memberships and shares, and pending access
 * requests, grant nothing. A group is visible by its visibility, or to a user related to it: with
 * access to it, or to a group or project inside it.
 *
 * A project's levels are read from `project_authorizations` (one row per user, project and expiry
 * date, kept by the database in the transaction of every change that moves access: migration
 * `Migration20261126180000_project_authorizations`): `projectAccessLevel` and the project list
 * forms join it. `projectAccessLevelByRules` is the rule it is kept equal to.
 *
 * The groups a user is related to (access to them, or to a group or project inside them) are read
 * from `group_relations` (one row per user and group, kept the same way: migration
 * `Migration20261127062000_group_relations`): `groupVisibleTo`, `listedGroupVisibleTo` and
 * `groupRelatedTo` probe or join it. `groupRelatedByRules` is the rule it is kept equal to.
 *
 * Two shapes for a group's access level, one per kind of question:
 * - A row's own access (`groupAccessLevel`) starts from the row: its ancestry (`traversal_ids`),
 *   then the caller's memberships on those groups and the shares into them. A handful of index
 *   lookups, whatever the caller belongs to; no common table expressions needed.
 * - A list's filter by level (`groupWithAccess`) needs `accessCtes`: the caller's few membership
 *   rows, joined once per statement to the namespaces below them by `traversal_ids`, so that each
 *   listed row costs a hash probe.
 */
import { sql, type RawBuilder } from 'kysely';
import { COUNT_LIMIT } from '@platform/db';
import { groupsKey, maintainedCount, projectsKey } from './list-counts.ts';
import { VISIBILITIES, type Visibility } from './namespace.entity.ts';

/** Who is looking: an anonymous caller, or a user (administrators see everything). */
export type Viewer = { kind: 'anonymous' } | { kind: 'user'; userId: number; username: string; isAdmin: boolean; external: boolean };

export const ANONYMOUS: Viewer = { kind: 'anonymous' };

const OPEN_TO_ALL: Visibility[] = ['public'];
const OPEN_TO_USERS: Visibility[] = ['public', 'internal'];

/**
 * The kinds of viewer the rules tell apart, the user's id aside: a statement built for a kind
 * (`viewerFactsOf`) has one text for every viewer of it. An administrator sees everything, external
 * or not.
 */
export type ViewerKind = 'anonymous' | 'user' | 'external' | 'admin';

export function viewerKind(viewer: Viewer): ViewerKind {
  if (viewer.kind === 'anonymous') return 'anonymous';
  if (viewer.isAdmin) return 'admin';
  return viewer.external ? 'external' : 'user';
}

/** The visibility levels a viewer of `kind` sees without any membership: internal ones only a user who is not external. */
function openVisibilitiesOf(kind: ViewerKind): Visibility[] {
  return kind === 'anonymous' || kind === 'external' ? OPEN_TO_ALL : OPEN_TO_USERS;
}

function openVisibilities(viewer: Viewer): Visibility[] {
  return openVisibilitiesOf(viewerKind(viewer));
}

/**
 * What the project rules read of the viewer. From a `Viewer` (`viewerFacts`) they are known when
 * the statement is built, and the rules fold to the viewer's case (an administrator sees every
 * project: `true`; an anonymous viewer has no access: `0`); from a `users` row the statement
 * reads (`userRowFacts`) they are SQL over that row, so that an access check need not read the
 * viewer first. `projectAccessLevel` and `projectVisibleTo` take either: each rule is written once.
 */
export interface ViewerFacts {
  /** The user's id: a parameter when known, undefined for a viewer known to be anonymous. */
  userId: number | RawBuilder<number> | undefined;
  isAdmin: boolean | RawBuilder<boolean>;
  /** The visibilities open to the viewer without any access, a `text[]` expression. */
  openVisibilities: RawBuilder<Visibility[]>;
}

/**
 * The facts of a viewer of `kind` whose id is `userId`: their own, or a compiled statement's
 * placeholder, so that the statement's one text serves every viewer of the kind. An anonymous
 * viewer has no id.
 */
export function viewerFactsOf(kind: ViewerKind, userId: number | RawBuilder<number>): ViewerFacts {
  const openToViewer = sql<Visibility[]>`${openVisibilitiesOf(kind)}::text[]`;
  if (kind === 'anonymous') return { userId: undefined, isAdmin: false, openVisibilities: openToViewer };
  return { userId, isAdmin: kind === 'admin', openVisibilities: openToViewer };
}

/**
 * The facts of a viewer read in the same statement: `users` as `userAlias`, left joined, where no
 * row is an anonymous viewer (no access, not an administrator, sees what an external user sees).
 */
export function userRowFacts(userAlias: string): ViewerFacts {
  const user = (column: string) => sql.ref(`${userAlias}.${column}`);
  return {
    userId: sql<number>`${user('id')}`,
    isAdmin: sql<boolean>`coalesce(${user('is_admin')}, false)`,
    // `openVisibilities`, read: a row that is a user and not external.
    openVisibilities: sql<Visibility[]>`(case when ${user('external')} = false
      then ${OPEN_TO_USERS}::text[] else ${OPEN_TO_ALL}::text[] end)`,
  };
}

function factsOf(viewer: Viewer | ViewerFacts): ViewerFacts {
  return 'kind' in viewer ? viewerFactsOf(viewerKind(viewer), userIdOf(viewer)) : viewer;
}

/** The viewer's user id, 0 for an anonymous viewer (no user has it). */
export function userIdOf(viewer: Viewer): number {
  return viewer.kind === 'user' ? viewer.userId : 0;
}

const activeMember = (alias: string) =>
  sql.raw(`${alias}.requested_at is null and (${alias}.expires_at is null or ${alias}.expires_at > current_date)`);
const activeLink = (alias: string) => sql.raw(`(${alias}.expires_at is null or ${alias}.expires_at > current_date)`);

/**
 * `members` as `m`, restricted to the user's active memberships of the groups in `ancestry` (an
 * integer array expression): a lookup on the (source_type, source_id, user_id) key.
 */
function membershipIn(userId: number | RawBuilder<number>, ancestry: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`m.source_type = 'Group' and m.source_id = any(${ancestry}) and m.user_id = ${userId} and ${activeMember('m')}`;
}

/** Level rows (`level`) granted on a group whose ancestry (self included) is `ancestry`: memberships, then shares into it. */
function groupLevels(userId: number | RawBuilder<number>, ancestry: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select m.access_level as level from members m where ${membershipIn(userId, ancestry)}
    union all
    select least(l.group_access, m.access_level) from group_group_links l
    join namespaces w on w.id = l.shared_with_group_id
    join members m on ${membershipIn(userId, sql`w.traversal_ids`)}
    where l.shared_group_id = any(${ancestry}) and ${activeLink('l')}`;
}

/** Level rows granted on project `project` (an id expression) other than through its namespace: membership, then shares. */
function projectOwnLevels(userId: number, project: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select m.access_level as level from members m
    where m.source_type = 'Project' and m.source_id = ${project} and m.user_id = ${userId} and ${activeMember('m')}
    union all
    select least(l.group_access, m.access_level) from project_group_links l
    join namespaces w on w.id = l.group_id
    join members m on ${membershipIn(userId, sql`w.traversal_ids`)}
    where l.project_id = ${project} and ${activeLink('l')}`;
}

/** The viewer's effective access level on a group (alias `alias` of `namespaces`), 0 without any. */
export function groupAccessLevel(viewer: Viewer | ViewerFacts, alias = 'n'): RawBuilder<number> {
  const { userId } = factsOf(viewer);
  if (userId === undefined) return sql<number>`0`;
  const levels = groupLevels(userId, sql.ref(`${alias}.traversal_ids`));
  return sql<number>`coalesce((select max(level) from (${levels}) levels), 0)`;
}

/**
 * The viewer's effective access level on a project (alias `alias` of `projects`) by the rules, 0
 * without any. Reads use `projectAccessLevel`, which finds it in `project_authorizations`; this
 * is what that table is kept equal to (`project-authorizations.int.test.ts`).
 */
export function projectAccessLevelByRules(viewer: Viewer, alias = 'p'): RawBuilder<number> {
  if (viewer.kind === 'anonymous') return sql<number>`0`;
  const ancestry = sql`(select pn.traversal_ids from namespaces pn where pn.id = ${sql.ref(`${alias}.namespace_id`)})::integer[]`;
  return sql<number>`coalesce((select max(level) from (
    ${projectOwnLevels(viewer.userId, sql.ref(`${alias}.id`))}
    union all
    ${groupLevels(viewer.userId, ancestry)}) levels), 0)`;
}

/**
 * Rows of `project_authorizations` (as `a`) still in force for the user: a grant lapses on its
 * expiry date, as the membership or share it comes from does.
 */
function authorizationsOf(userId: number | RawBuilder<number>): RawBuilder<unknown> {
  return sql`a.user_id = ${userId} and a.expires_at > current_date`;
}

/** The viewer's effective access level on a project (alias `alias` of `projects`), 0 without any: the table's highest current grant. */
export function projectAccessLevel(viewer: Viewer | ViewerFacts, alias = 'p'): RawBuilder<number> {
  const { userId } = factsOf(viewer);
  if (userId === undefined) return sql<number>`0`;
  return sql<number>`coalesce((select max(a.access_level) from project_authorizations a
    where ${authorizationsOf(userId)} and a.project_id = ${sql.ref(`${alias}.id`)}), 0)`;
}

/** The projects on which the user has at least `minimum`, from `project_authorizations` (an index-only range of the user's rows). */
function authorizedProjects(userId: number, minimum: number): RawBuilder<unknown> {
  return sql`select a.project_id from project_authorizations a where ${authorizationsOf(userId)} and a.access_level >= ${minimum}`;
}

/** The groups the user is related to, from `group_relations`: the rows still in force (a relation lapses with the membership or share it comes from). */
function relatedGroupIds(userId: number | RawBuilder<number>): RawBuilder<unknown> {
  return sql`select r.group_id from group_relations r where r.user_id = ${userId} and r.expires_at > current_date`;
}

/**
 * True for a group (alias `alias` of `namespaces`) that `viewer` may see: by its visibility, or
 * by a relation to it (`groupRelatedByRules`), a key probe of `group_relations`.
 */
export function groupVisibleTo(viewer: Viewer | ViewerFacts, alias = 'n'): RawBuilder<boolean> {
  return visibleTo(factsOf(viewer), alias, (userId) => sql`exists (${relatedGroupIds(userId)} and r.group_id = ${sql.ref(`${alias}.id`)})`);
}

/**
 * True for a group (alias `alias` of `namespaces`) the user is related to, by the rules: with
 * access to it, or to a group or project inside it (a membership or a share whose namespace lies
 * below it). Reads use `group_relations`, which is kept equal to this
 * (`group-relations.int.test.ts`).
 */
export function groupRelatedByRules(viewer: Viewer & { kind: 'user' }, alias = 'n'): RawBuilder<unknown> {
  const userId = viewer.userId;
  const inside = sql`array[${sql.ref(`${alias}.id`)}]`;
  return sql`(${groupAccessLevel(viewer, alias)} > 0
    or exists (select 1 from members m join namespaces d on d.id = m.source_id
      where m.source_type = 'Group' and m.user_id = ${userId} and ${activeMember('m')} and d.traversal_ids @> ${inside})
    or exists (select 1 from members m join projects p on p.id = m.source_id join namespaces d on d.id = p.namespace_id
      where m.source_type = 'Project' and m.user_id = ${userId} and ${activeMember('m')} and d.traversal_ids @> ${inside})
    or exists (select 1 from namespaces d join group_group_links l on l.shared_group_id = d.id and ${activeLink('l')}
      join namespaces w on w.id = l.shared_with_group_id join members m on ${membershipIn(userId, sql`w.traversal_ids`)}
      where d.traversal_ids @> ${inside})
    or exists (select 1 from namespaces d join projects p on p.namespace_id = d.id
      join project_group_links l on l.project_id = p.id and ${activeLink('l')}
      join namespaces w on w.id = l.group_id join members m on ${membershipIn(userId, sql`w.traversal_ids`)}
      where d.traversal_ids @> ${inside}))`;
}

/** True for a project (alias `alias` of `projects`) that `viewer` may see: by its visibility or by any access to it. */
export function projectVisibleTo(viewer: Viewer | ViewerFacts, alias = 'p'): RawBuilder<boolean> {
  const facts = factsOf(viewer);
  return visibleTo(facts, alias, () => sql`${projectAccessLevel(facts, alias)} > 0`);
}

/**
 * True for a group or project (alias `alias`) that the viewer may see: every one for an
 * administrator, a public one for an anonymous viewer, and for a user one whose visibility is
 * open to them or that they are `related` to (given their id).
 */
function visibleTo(
  facts: ViewerFacts,
  alias: string,
  related: (userId: number | RawBuilder<number>) => RawBuilder<unknown>,
): RawBuilder<boolean> {
  if (facts.isAdmin === true) return sql<boolean>`true`;
  const visibility = sql.ref(`${alias}.visibility`);
  if (facts.userId === undefined) return sql<boolean>`${visibility} = 'public'`;
  const seen = [sql`${visibility} = any(${facts.openVisibilities})`, related(facts.userId)];
  return sql<boolean>`(${sql.join(facts.isAdmin === false ? seen : [facts.isAdmin, ...seen], sql` or `)})`;
}

/**
 * Common table expressions for list filters by access level, from the viewer's membership rows:
 * `access_roots (id)`, the groups a user's access starts from (their group memberships and the
 * groups shared with those or with groups below them); `access_groups (id)`, every group at or
 * below a root (each has some access).
 */
export function accessCtes(viewer: Viewer): RawBuilder<unknown> {
  const userId = userIdOf(viewer);
  return sql`
    access_memberships (id) as (
      select m.source_id from members m where m.source_type = 'Group' and m.user_id = ${userId} and ${activeMember('m')}
    ),
    access_roots (id) as (
      select id from access_memberships
      union
      select l.shared_group_id from namespaces w join group_group_links l on l.shared_with_group_id = w.id and ${activeLink('l')}
      where w.traversal_ids && array(select id from access_memberships)
    ),
    access_groups (id) as (
      select g.id from namespaces g where g.traversal_ids && array(select id from access_roots)
    )`;
}

/**
 * In a list: a group (alias `alias`) the viewer is related to, with access to it or to something
 * inside: their rows of `group_relations`, read into one array first, so that the list fetches
 * those groups by key instead of hashing them and walking every group.
 */
export function groupRelatedTo(viewer: Viewer | ViewerFacts, alias = 'n'): RawBuilder<unknown> {
  const { userId } = factsOf(viewer);
  if (userId === undefined) return sql`false`;
  return sql`${sql.ref(`${alias}.id`)} = any(array(${relatedGroupIds(userId)}))`;
}

/**
 * How many groups the viewer is related to, for the total of a list of those alone
 * (`groupRelatedTo`): their rows of `group_relations` in force, one per group. Counting the list's
 * rows probed a groups index for each of them.
 */
export function relatedGroupCount(viewer: Viewer | ViewerFacts): RawBuilder<number> {
  const { userId } = factsOf(viewer);
  if (userId === undefined) return sql<number>`0`;
  return sql<number>`(select count(*) from (${relatedGroupIds(userId)} limit ${COUNT_LIMIT + 1}) related)`;
}

/** In a list: `groupVisibleTo`, with the viewer's related groups joined once instead of probed per row. */
export function listedGroupVisibleTo(viewer: Viewer | ViewerFacts, alias = 'n'): RawBuilder<unknown> {
  const facts = factsOf(viewer);
  if (facts.userId === undefined || facts.isAdmin !== false) return groupVisibleTo(facts, alias);
  return sql`(${sql.ref(`${alias}.visibility`)} = any(${facts.openVisibilities}) or ${groupRelatedTo(facts, alias)})`;
}

/**
 * The ids of the projects (alias `p`) the viewer may see among those `filter` keeps, for a list's
 * capped count: for a member, a `union all` of two disjoint parts, the projects whose visibility
 * opens them to the viewer, then the others on which they have a row of `project_authorizations`.
 * A count capped at 10,001 reads the first part from `projects_visibility_id_idx` and stops there
 * once it holds enough, so it reads no more at a million projects than at ten thousand, however
 * many rows the member has; in one scan with the authorizations as a hashed semi-join it read
 * and hashed all of them, and walked the table until enough rows passed. A page reads by its
 * order instead and tests the rows it walks with `projectVisibleTo`, one key probe each.
 */
export function visibleProjectIds(viewer: Viewer, filter: RawBuilder<unknown>): RawBuilder<unknown> {
  if (viewer.kind !== 'user' || viewer.isAdmin) return sql`select p.id from projects p where ${projectVisibleTo(viewer)} and ${filter}`;
  const open = openVisibilities(viewer);
  return sql`select p.id from projects p where p.visibility = any(${open}::text[]) and ${filter}
    union all
    ${closedProjectIdsSeenBy(viewer, filter)}`;
}

/** The second part of `visibleProjectIds`: the projects closed to the user by their visibility that they have a row of `project_authorizations` on. */
function closedProjectIdsSeenBy(viewer: Viewer & { kind: 'user' }, filter: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select p.id from projects p where p.visibility <> all(${openVisibilities(viewer)}::text[])
    and p.id in (${authorizedProjects(viewer.userId, 1)}) and ${filter}`;
}

/**
 * A list's total from the counts `list_counts` maintains per visibility (`keyOf` names each one's
 * key): all of them for an administrator, those open to the viewer otherwise. A user's total adds
 * `closedToUser`, the rows closed to them by visibility that they see all the same (counted up to
 * the cap), unless the open ones alone exceed the cap, when the total is omitted anyway.
 */
function visibleCount(
  kind: ViewerKind,
  keyOf: (visibility: Visibility) => string,
  closedToUser: (openToUser: Visibility[]) => RawBuilder<unknown>,
): RawBuilder<number> {
  if (kind === 'admin') return maintainedCount(VISIBILITIES.map(keyOf));
  const visibilities = openVisibilitiesOf(kind);
  const open = maintainedCount(visibilities.map(keyOf));
  if (kind === 'anonymous') return open;
  return sql<number>`(select case when o.count > ${COUNT_LIMIT} then o.count
    else o.count + (select count(*) from (${closedToUser(visibilities)} limit ${COUNT_LIMIT + 1}) closed) end
    from (select ${open} as count) o)`;
}

/** How many projects the viewer sees, for the unfiltered project list's total (`visibleCount`): a user's closed ones are those they are authorised on. */
export function visibleProjectCount(viewer: Viewer): RawBuilder<number> {
  return visibleCount(viewerKind(viewer), projectsKey, (openToUser) => closedProjectsAuthorizedTo(userIdOf(viewer), openToUser));
}

/**
 * The projects closed to the user by their visibility that they have a row of
 * `project_authorizations` on, walked from their rows by key (`project_authorizations_probe_idx`,
 * in project order), each project's visibility probed by its key: as a semi-join of projects,
 * PostgreSQL hashed the rows and read every closed project's entry of `projects_visibility_id_idx`
 * (5,765 to find a member's 185 on the bench seed, 1.1 ms; this walk 0.44 ms).
 */
function closedProjectsAuthorizedTo(userId: number, openToUser: Visibility[]): RawBuilder<unknown> {
  return sql`select a.project_id from project_authorizations a where ${authorizationsOf(userId)} and a.access_level >= 1
    group by a.project_id having (select p.visibility from projects p where p.id = a.project_id) <> all(${openToUser}::text[])`;
}

/**
 * How many groups a viewer of `kind` (with id `userId`, a value or a placeholder) sees, for the
 * unfiltered group list's total (`visibleCount`): a user's closed ones are those they are related
 * to, their rows of `group_relations`, each group's visibility probed by its key. Counting the
 * list's own rows walked every group of the open visibilities (1,109 on the bench seed) on every request.
 */
export function visibleGroupCount(kind: ViewerKind, userId: number | RawBuilder<number>): RawBuilder<number> {
  return visibleCount(
    kind,
    groupsKey,
    (openToUser) => sql`select related.group_id from (${relatedGroupIds(userId)}) related
      where (select n.visibility from namespaces n where n.id = related.group_id and n.kind = 'group') <> all(${openToUser}::text[])`,
  );
}

/** In a list: a group (alias `alias`) on which the viewer has at least `minimum`; needs `accessCtes`. */
export function groupWithAccess(viewer: Viewer, minimum: number, alias = 'n'): RawBuilder<unknown> {
  if (viewer.kind === 'anonymous') return sql`false`;
  return sql`(${sql.ref(`${alias}.id`)} in (select id from access_groups) and ${groupAccessLevel(viewer, alias)} >= ${minimum})`;
}

/** In a list: a project (alias `alias`) on which the viewer has at least `minimum`. */
export function projectWithAccess(viewer: Viewer, minimum: number, alias = 'p'): RawBuilder<unknown> {
  if (viewer.kind === 'anonymous') return sql`false`;
  return sql`${sql.ref(`${alias}.id`)} in (${authorizedProjects(viewer.userId, minimum)})`;
}
