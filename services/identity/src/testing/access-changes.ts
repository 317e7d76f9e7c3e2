/**
 * Random changes to a generated world (`access-world.ts`) made through the API as an
 * administrator, for the property tests of the tables kept by triggers (`project_authorizations`,
 * `group_relations`): memberships, access requests, shares, new subgroups, transfers, deletions.
 */
import { expect } from '@jest/globals';
import fc from 'fast-check';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import type { IdentityHarness } from './identity-harness.ts';
import { generateWorld, LEVELS, type World } from './access-world.ts';

/** Indexes into the world's lists, taken modulo their lengths when the change is made. */
const index = fc.nat({ max: 40 });
const level = fc.constantFrom(...LEVELS);
const expiry = fc.constantFrom(undefined, '2999-01-01');
const type = fc.constantFrom('Group' as const, 'Project' as const);
export const change = fc.oneof(
  fc.record({ kind: fc.constant('add member' as const), type, target: index, user: index, level, expiry }),
  fc.record({ kind: fc.constant('update member' as const), membership: index, level, expiry }),
  fc.record({ kind: fc.constant('remove member' as const), membership: index }),
  fc.record({ kind: fc.constant('approve access request' as const), membership: index }),
  fc.record({ kind: fc.constant('share' as const), type, target: index, group: index, level, expiry }),
  fc.record({ kind: fc.constant('unshare' as const), type, share: index }),
  fc.record({ kind: fc.constant('create subgroup' as const), parent: index }),
  fc.record({ kind: fc.constant('transfer group' as const), target: index, parent: fc.option(index) }),
  fc.record({ kind: fc.constant('transfer project' as const), target: index, group: fc.option(index), user: index }),
  fc.record({ kind: fc.constant('delete' as const), type, target: index }),
  fc.record({ kind: fc.constant('delete user' as const), user: index }),
);
export type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

const admin = callerHeader(adminCaller());

/**
 * Makes one change through the API, as an administrator, and records what it added in `world` so
 * that later changes find it. Refusals (a path taken, a cycle, a member already there...) leave
 * the world as it was.
 */
export async function apply(kit: IdentityHarness, world: World, step: Change): Promise<number> {
  const at = <T>(items: T[], position: number): T => items[position % items.length]!;
  const pathOf = (type: 'Group' | 'Project', id: number) => `/api/v4/${type === 'Group' ? 'groups' : 'projects'}/${id}`;
  const targetOf = (type: 'Group' | 'Project', position: number) =>
    type === 'Group' ? at(world.groups, position).id : at(world.projects, position).id;
  switch (step.kind) {
    case 'add member': {
      const member = { sourceType: step.type, sourceId: targetOf(step.type, step.target), userId: at(world.users, step.user).id };
      const { status } = await kit.api
        .post(`${pathOf(member.sourceType, member.sourceId)}/members`)
        .set(admin)
        .send({ user_id: member.userId, access_level: step.level, expires_at: step.expiry });
      if (status === 201) world.memberships.push({ ...member, level: step.level, active: true });
      return status;
    }
    case 'update member': {
      const member = at(world.memberships, step.membership);
      const { status } = await kit.api
        .put(`${pathOf(member.sourceType, member.sourceId)}/members/${member.userId}`)
        .set(admin)
        .send({ access_level: step.level, expires_at: step.expiry ?? '' });
      return status;
    }
    case 'remove member': {
      const member = at(world.memberships, step.membership);
      return (await kit.api.delete(`${pathOf(member.sourceType, member.sourceId)}/members/${member.userId}`).set(admin)).status;
    }
    case 'approve access request': {
      // A pending request of the generated world, or a new one asked for by the member's user.
      const member = at(world.memberships, step.membership);
      const source = pathOf(member.sourceType, member.sourceId);
      const approve = () => kit.api.put(`${source}/access_requests/${member.userId}/approve`).set(admin).send({ access_level: 30 });
      const approved = await approve();
      if (approved.status !== 404) return approved.status;
      const asked = await kit.api.post(`${source}/access_requests`).set(callerHeader(userCaller(member.userId, `u${member.userId}`)));
      return asked.status === 201 ? (await approve()).status : asked.status;
    }
    case 'share': {
      const share = { targetId: targetOf(step.type, step.target), groupId: at(world.groups, step.group).id };
      const level = step.type === 'Project' ? Math.min(step.level, 40) : step.level;
      const { status } = await kit.api
        .post(`${pathOf(step.type, share.targetId)}/share`)
        .set(admin)
        .send({ group_id: share.groupId, group_access: level, expires_at: step.expiry });
      if (status === 201) (step.type === 'Group' ? world.groupShares : world.projectShares).push({ ...share, level, active: true });
      return status;
    }
    case 'unshare': {
      const shares = step.type === 'Group' ? world.groupShares : world.projectShares;
      if (shares.length === 0) return 404;
      const share = at(shares, step.share);
      return (await kit.api.delete(`${pathOf(step.type, share.targetId)}/share/${share.groupId}`).set(admin)).status;
    }
    case 'create subgroup': {
      const parent = at(world.groups, step.parent);
      const path = `sub${world.groups.length}-${parent.id}`;
      const { status, body } = await kit.api.post('/api/v4/groups').set(admin).send({ name: path, path, parent_id: parent.id });
      if (status === 201) world.groups.push({ id: body.id, traversalIds: [...parent.traversalIds, body.id], visibility: body.visibility });
      return status;
    }
    case 'transfer group':
      return (
        await kit.api
          .post(`/api/v4/groups/${at(world.groups, step.target).id}/transfer`)
          .set(admin)
          .send(step.parent === null ? {} : { group_id: at(world.groups, step.parent).id })
      ).status;
    case 'transfer project': {
      const namespace = step.group === null ? at(world.users, step.user).personalNamespaceId : at(world.groups, step.group).id;
      return (
        await kit.api
          .put(`/api/v4/projects/${at(world.projects, step.target).id}/transfer`)
          .set(admin)
          .send({ namespace })
      ).status;
    }
    case 'delete': {
      const id = targetOf(step.type, step.target);
      const marked = await kit.api.delete(pathOf(step.type, id)).set(admin);
      if (step.type === 'Group' || marked.status !== 202) return marked.status;
      // A project may be marked first; removing it for good names its path.
      const [project] = await kit.sql<{ full_path: string }>(
        "select n.full_path || '/' || p.path as full_path from projects p join namespaces n on n.id = p.namespace_id where p.id = $1",
        [id],
      );
      if (!project) return marked.status; // removed at once
      return (await kit.api.delete(pathOf(step.type, id)).query({ permanently_remove: true, full_path: project.full_path }).set(admin))
        .status;
    }
    case 'delete user':
      return (
        await kit.api
          .delete(`/api/v4/users/${at(world.users, step.user).id}`)
          .query({ hard_delete: true })
          .set(admin)
      ).status;
  }
}

/**
 * The property both tables are held to: over `runs` generated worlds, `differences` finds none once
 * the world is written and none after each change of a random sequence made through the API.
 */
export async function expectNoDifferencesAfterChanges(
  kit: IdentityHarness,
  options: { prefix: string; runs: number },
  differences: (world: World) => Promise<unknown[]>,
): Promise<void> {
  let worlds = 0;
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.array(change, { maxLength: 6 }), async (seed, changes) => {
      worlds += 1;
      const world = await generateWorld(kit, { seed, prefix: `${options.prefix}${worlds}` });
      expect({ after: 'generating', differences: await differences(world) }).toEqual({ after: 'generating', differences: [] });
      for (const step of changes) {
        const status = await apply(kit, world, step);
        expect({ step, status: status < 500 }).toEqual({ step, status: true });
        expect({ after: step, differences: await differences(world) }).toEqual({ after: step, differences: [] });
      }
    }),
    // A failure names its world's seed and changes; shrinking would build a new world per attempt.
    { numRuns: options.runs, endOnFailure: true },
  );
}
