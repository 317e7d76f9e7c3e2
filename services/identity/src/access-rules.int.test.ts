/**
 * The access rules in SQL against the rules as written (ADR 5), on generated trees of groups,
 * projects, memberships (some expired or pending) and shares (some expired): every row form
 * (`groupAccessLevel`, `groupVisibleTo`...) and every list form (`listedGroupVisibleTo`,
 * `groupWithAccess`...) must agree with a plain TypeScript reading of the rules, for every user,
 * group and project.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql, type Kysely } from 'kysely';
import { startIdentityHarness, type IdentityHarness } from './testing/identity-harness.ts';
import {
  accessCtes,
  groupAccessLevel,
  groupRelatedTo,
  groupVisibleTo,
  groupWithAccess,
  listedGroupVisibleTo,
  listedProjectVisibleTo,
  projectAccessLevel,
  projectVisibleTo,
  projectWithAccess,
  type Viewer,
} from './features/access/access-sql.ts';

interface Group {
  id: number;
  traversalIds: number[];
  visibility: string;
}
interface Project {
  id: number;
  namespaceId: number;
  visibility: string;
}
interface Membership {
  sourceType: 'Group' | 'Project';
  sourceId: number;
  userId: number;
  level: number;
  active: boolean;
}
interface Share {
  targetId: number;
  groupId: number;
  level: number;
  active: boolean;
}
interface World {
  users: Array<{ id: number; external: boolean; personalNamespaceId: number }>;
  groups: Group[];
  projects: Project[];
  memberships: Membership[];
  groupShares: Share[];
  projectShares: Share[];
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure names a seed that reproduces it. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VISIBILITIES = ['private', 'internal', 'public'];
const LEVELS = [10, 20, 30, 40, 50];

let kit: IdentityHarness;
let db: Kysely<unknown>;

beforeAll(async () => {
  kit = await startIdentityHarness('access_sql');
  db = kit.service.orm.em.getKysely() as unknown as Kysely<unknown>;
});

afterAll(async () => {
  await kit?.stop();
});

/** Writes a generated world straight into the tables, as the API would have left them. */
async function generate(seed: number): Promise<World> {
  const random = randomFrom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const users: World['users'] = [];
  for (let index = 0; index < 4; index += 1) {
    const external = index === 3;
    const user = await kit.createUser(`acc${seed}u${index}`, { external });
    const [namespace] = await kit.sql<{ id: number }>("select id from namespaces where owner_id = $1 and kind = 'user'", [user.id]);
    users.push({ id: user.id, external, personalNamespaceId: namespace!.id });
  }
  const groups: Group[] = [];
  for (let index = 0; index < 14; index += 1) {
    // Never more visible than the parent, as the API enforces.
    const parent = index < 4 ? undefined : pick(groups.filter((group) => group.traversalIds.length < 3));
    const allowed = VISIBILITIES.slice(0, parent ? VISIBILITIES.indexOf(parent.visibility) + 1 : 3);
    const visibility = pick(allowed);
    const [row] = await kit.sql<{ id: number; traversal_ids: number[] }>(
      `with next as (select nextval('namespaces_id_seq')::int as id)
       insert into namespaces (id, kind, name, path, full_path, parent_id, traversal_ids, visibility)
       select id, 'group', $1, $1, $2 || $1, $3::int, $4::int[] || id, $5 from next returning id, traversal_ids`,
      [`g${seed}x${index}`, parent ? `${parent.id}/` : '', parent?.id ?? null, parent?.traversalIds ?? [], visibility],
    );
    groups.push({ id: row!.id, traversalIds: row!.traversal_ids, visibility });
  }
  const projects: Project[] = [];
  for (let index = 0; index < 18; index += 1) {
    const inGroup = random() < 0.8;
    const namespace = inGroup ? pick(groups) : undefined;
    const namespaceId = namespace?.id ?? pick(users).personalNamespaceId;
    const visibility = pick(VISIBILITIES.slice(0, namespace ? VISIBILITIES.indexOf(namespace.visibility) + 1 : 3));
    const [row] = await kit.sql<{ id: number }>(
      'insert into projects (namespace_id, name, path, visibility) values ($1, $2, $2, $3) returning id',
      [namespaceId, `p${seed}x${index}`, visibility],
    );
    projects.push({ id: row!.id, namespaceId, visibility });
  }
  const memberships: Membership[] = [];
  for (const user of users) {
    for (const [sourceType, sources] of [
      ['Group', groups],
      ['Project', projects],
    ] as const) {
      for (const source of sources) {
        if (random() > 0.18) continue;
        const state = pick(['active', 'active', 'active', 'expired', 'pending'] as const);
        const level = sourceType === 'Project' ? pick(LEVELS.slice(0, 4)) : pick(LEVELS);
        await kit.sql(
          `insert into members (source_type, source_id, user_id, access_level, expires_at, requested_at)
           values ($1, $2, $3, $4, $5, $6)`,
          [
            sourceType,
            source.id,
            user.id,
            level,
            state === 'expired' ? '2000-01-01' : state === 'active' && random() < 0.3 ? '2999-01-01' : null,
            state === 'pending' ? new Date() : null,
          ],
        );
        memberships.push({ sourceType, sourceId: source.id, userId: user.id, level, active: state === 'active' });
      }
    }
  }
  const groupShares: Share[] = [];
  const projectShares: Share[] = [];
  for (let index = 0; index < 8; index += 1) {
    const target = pick(groups);
    const group = pick(groups);
    if (target.id === group.id || groupShares.some((share) => share.targetId === target.id && share.groupId === group.id)) continue;
    const share = { targetId: target.id, groupId: group.id, level: pick(LEVELS), active: random() < 0.8 };
    await kit.sql(
      'insert into group_group_links (shared_group_id, shared_with_group_id, group_access, expires_at) values ($1, $2, $3, $4)',
      [share.targetId, share.groupId, share.level, share.active ? null : '2000-01-01'],
    );
    groupShares.push(share);
  }
  for (let index = 0; index < 8; index += 1) {
    const target = pick(projects);
    const group = pick(groups);
    if (projectShares.some((share) => share.targetId === target.id && share.groupId === group.id)) continue;
    const share = { targetId: target.id, groupId: group.id, level: pick(LEVELS.slice(0, 4)), active: random() < 0.8 };
    await kit.sql('insert into project_group_links (project_id, group_id, group_access, expires_at) values ($1, $2, $3, $4)', [
      share.targetId,
      share.groupId,
      share.level,
      share.active ? null : '2000-01-01',
    ]);
    projectShares.push(share);
  }
  return { users, groups, projects, memberships, groupShares, projectShares };
}

/** The rules, read plainly. */
function oracle(world: World, userId: number, external: boolean) {
  const byId = new Map(world.groups.map((group) => [group.id, group]));
  const ancestry = (namespaceId: number) => byId.get(namespaceId)?.traversalIds ?? [namespaceId];
  const held = (sourceType: string, sourceId: number) =>
    world.memberships
      .filter((m) => m.active && m.userId === userId && m.sourceType === sourceType && m.sourceId === sourceId)
      .map((m) => m.level);
  const memberLevel = (groupId: number) => Math.max(0, ...ancestry(groupId).flatMap((id) => held('Group', id)));
  const groupLevel = (groupId: number) =>
    Math.max(
      memberLevel(groupId),
      ...world.groupShares
        .filter((share) => share.active && ancestry(groupId).includes(share.targetId))
        .map((share) => Math.min(share.level, memberLevel(share.groupId))),
    );
  const projectLevel = (project: Project) =>
    Math.max(
      0,
      ...held('Project', project.id),
      byId.has(project.namespaceId) ? groupLevel(project.namespaceId) : 0,
      ...world.projectShares
        .filter((share) => share.active && share.targetId === project.id)
        .map((share) => Math.min(share.level, memberLevel(share.groupId))),
    );
  const open = external ? ['public'] : ['public', 'internal'];
  const inside = (group: Group, namespaceId: number) => ancestry(namespaceId).includes(group.id);
  const related = (group: Group) =>
    world.groups.some((other) => inside(group, other.id) && groupLevel(other.id) > 0) ||
    world.projects.some((project) => inside(group, project.namespaceId) && projectLevel(project) > 0);
  return {
    groupLevel,
    projectLevel,
    related,
    groupVisible: (group: Group) => open.includes(group.visibility) || related(group),
    projectVisible: (project: Project) => open.includes(project.visibility) || projectLevel(project) > 0,
  };
}

describe('access rules in SQL', () => {
  it.each([1, 2, 3, 4, 5, 6])('agree with the rules as written (world %i)', async (seed) => {
    const world = await generate(seed);
    const groupIds = world.groups.map((group) => group.id);
    const projectIds = world.projects.map((project) => project.id);
    for (const user of world.users) {
      const viewer: Viewer = { kind: 'user', userId: user.id, username: 'x', isAdmin: false, external: user.external };
      const rules = oracle(world, user.id, user.external);
      const { rows: groupRows } = await sql<{
        id: number;
        level: number;
        visible: boolean;
        listed: boolean;
        related: boolean;
        guest: boolean;
        developer: boolean;
      }>`with ${accessCtes(viewer)}
        select n.id, ${groupAccessLevel(viewer)} as level, ${groupVisibleTo(viewer)} as visible,
          ${listedGroupVisibleTo(viewer)} as listed, ${groupRelatedTo()} as related,
          ${groupWithAccess(viewer, 10)} as guest, ${groupWithAccess(viewer, 30)} as developer
        from namespaces n where n.id = any(${groupIds}::integer[]) order by n.id`.execute(db);
      const expectedGroups = world.groups.map((group) => {
        const level = rules.groupLevel(group.id);
        const visible = rules.groupVisible(group);
        return { id: group.id, level, visible, listed: visible, related: rules.related(group), guest: level >= 10, developer: level >= 30 };
      });
      expect({ user: user.id, groups: groupRows.map((row) => ({ ...row, level: Number(row.level) })) }).toEqual({
        user: user.id,
        groups: expectedGroups,
      });

      const { rows: projectRows } = await sql<{
        id: number;
        level: number;
        visible: boolean;
        listed: boolean;
        reporter: boolean;
      }>`with ${accessCtes(viewer)}
        select p.id, ${projectAccessLevel(viewer)} as level, ${projectVisibleTo(viewer)} as visible,
          ${listedProjectVisibleTo(viewer)} as listed, ${projectWithAccess(viewer, 20)} as reporter
        from projects p where p.id = any(${projectIds}::integer[]) order by p.id`.execute(db);
      const expectedProjects = world.projects.map((project) => {
        const level = rules.projectLevel(project);
        const visible = rules.projectVisible(project);
        return { id: project.id, level, visible, listed: visible, reporter: level >= 20 };
      });
      expect({ user: user.id, projects: projectRows.map((row) => ({ ...row, level: Number(row.level) })) }).toEqual({
        user: user.id,
        projects: expectedProjects,
      });
    }
  });
});
