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
import { generateWorld, type Group, type Project, type World } from './testing/access-world.ts';
import {
  accessCtes,
  groupAccessLevel,
  groupRelatedTo,
  groupVisibleTo,
  groupWithAccess,
  listedGroupVisibleTo,
  projectAccessLevel,
  projectAccessLevelByRules,
  projectVisibleTo,
  projectWithAccess,
  visibleProjectIds,
  type Viewer,
} from './features/access/access-sql.ts';

let kit: IdentityHarness;
let db: Kysely<unknown>;

beforeAll(async () => {
  kit = await startIdentityHarness('access_sql');
  db = kit.service.orm.em.getKysely() as unknown as Kysely<unknown>;
});

afterAll(async () => {
  await kit?.stop();
});

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
    const world = await generateWorld(kit, { seed, prefix: `acc${seed}` });
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
          ${listedGroupVisibleTo(viewer)} as listed, ${groupRelatedTo(viewer)} as related,
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
        rules: number;
        level: number;
        visible: boolean;
        listed: number;
        reporter: boolean;
      }>`with ${accessCtes(viewer)}
        select p.id, ${projectAccessLevelByRules(viewer)} as rules, ${projectAccessLevel(viewer)} as level, ${projectVisibleTo(viewer)} as visible,
          (select count(*)::integer from (${visibleProjectIds(viewer, sql`true`)}) v where v.id = p.id) as listed,
          ${projectWithAccess(viewer, 20)} as reporter
        from projects p where p.id = any(${projectIds}::integer[]) order by p.id`.execute(db);
      const expectedProjects = world.projects.map((project) => {
        const level = rules.projectLevel(project);
        const visible = rules.projectVisible(project);
        // A list's count holds each visible project once: its parts are disjoint.
        return { id: project.id, rules: level, level, visible, listed: visible ? 1 : 0, reporter: level >= 20 };
      });
      expect({
        user: user.id,
        projects: projectRows.map((row) => ({ ...row, rules: Number(row.rules), level: Number(row.level) })),
      }).toEqual({
        user: user.id,
        projects: expectedProjects,
      });
    }
  });
});
