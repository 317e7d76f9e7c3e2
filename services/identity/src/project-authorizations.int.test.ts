/**
 * `project_authorizations` against the access rules (`access-sql.ts`): generated worlds of groups,
 * subgroups, projects, memberships and shares, then random sequences of changes made through the
 * API (memberships, access requests, shares, transfers, deletions). After the world is written
 * and after every change, each of the world's users must hold in the table exactly the level the
 * rules compute on every project.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from './testing/identity-harness.ts';
import { generateWorld, LEVELS, type World } from './testing/access-world.ts';
import { projectAccessLevel, type Viewer } from './features/access/access-sql.ts';

let kit: IdentityHarness;
let db: Kysely<unknown>;
let worlds = 0;

beforeAll(async () => {
  kit = await startIdentityHarness('project_authorizations');
  db = kit.service.orm.em.getKysely() as unknown as Kysely<unknown>;
});

afterAll(async () => {
  await kit?.stop();
});

/** Indexes into the world's lists, taken modulo their lengths when the change is made. */
const index = fc.nat({ max: 40 });
const level = fc.constantFrom(...LEVELS);
const expiry = fc.constantFrom(undefined, '2999-01-01');
const source = fc.constantFrom('groups' as const, 'projects' as const);
const change = fc.oneof(
  fc.record({ kind: fc.constant('add member' as const), source, target: index, user: index, level, expiry }),
  fc.record({ kind: fc.constant('update member' as const), source, target: index, user: index, level, expiry }),
  fc.record({ kind: fc.constant('remove member' as const), source, target: index, user: index }),
  fc.record({ kind: fc.constant('approve access request' as const), source, target: index, user: index }),
  fc.record({ kind: fc.constant('share' as const), source, target: index, group: index, level, expiry }),
  fc.record({ kind: fc.constant('unshare' as const), source, target: index, group: index }),
  fc.record({ kind: fc.constant('transfer group' as const), target: index, parent: fc.option(index) }),
  fc.record({ kind: fc.constant('transfer project' as const), target: index, group: fc.option(index), user: index }),
  fc.record({ kind: fc.constant('delete' as const), source, target: index }),
  fc.record({ kind: fc.constant('delete user' as const), user: index }),
);
type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;

const admin = callerHeader(adminCaller());

/** Makes one change through the API, as an administrator; refusals (a path taken, a cycle...) leave the world as it was. */
async function apply(world: World, step: Change): Promise<number> {
  const at = <T>(items: T[], position: number): T => items[position % items.length]!;
  const user = 'user' in step ? at(world.users, step.user).id : 0;
  const target =
    'target' in step
      ? step.kind === 'transfer group' || ('source' in step && step.source === 'groups')
        ? at(world.groups, step.target).id
        : at(world.projects, step.target).id
      : 0;
  const base = 'source' in step ? `/api/v4/${step.source}/${target}` : '';
  switch (step.kind) {
    case 'add member':
      return (await kit.api.post(`${base}/members`).set(admin).send({ user_id: user, access_level: step.level, expires_at: step.expiry }))
        .status;
    case 'update member':
      return (
        await kit.api
          .put(`${base}/members/${user}`)
          .set(admin)
          .send({ access_level: step.level, expires_at: step.expiry ?? '' })
      ).status;
    case 'remove member':
      return (await kit.api.delete(`${base}/members/${user}`).set(admin)).status;
    case 'approve access request': {
      const requested = await kit.api.post(`${base}/access_requests`).set(callerHeader(userCaller(user, `u${user}`)));
      if (requested.status !== 201) return requested.status;
      return (await kit.api.put(`${base}/access_requests/${user}/approve`).set(admin)).status;
    }
    case 'share':
      return (
        await kit.api
          .post(`${base}/share`)
          .set(admin)
          .send({
            group_id: at(world.groups, step.group).id,
            group_access: step.source === 'projects' ? Math.min(step.level, 40) : step.level,
            expires_at: step.expiry,
          })
      ).status;
    case 'unshare':
      return (await kit.api.delete(`${base}/share/${at(world.groups, step.group).id}`).set(admin)).status;
    case 'transfer group':
      return (
        await kit.api
          .post(`/api/v4/groups/${target}/transfer`)
          .set(admin)
          .send(step.parent === null ? {} : { group_id: at(world.groups, step.parent).id })
      ).status;
    case 'transfer project': {
      const namespace = step.group === null ? at(world.users, step.user).personalNamespaceId : at(world.groups, step.group).id;
      return (await kit.api.put(`/api/v4/projects/${target}/transfer`).set(admin).send({ namespace })).status;
    }
    case 'delete': {
      const marked = await kit.api.delete(base).set(admin);
      if (step.source === 'groups' || marked.status !== 202) return marked.status;
      const [project] = await kit.sql<{ full_path: string }>(
        "select n.full_path || '/' || p.path as full_path from projects p join namespaces n on n.id = p.namespace_id where p.id = $1",
        [target],
      );
      return (await kit.api.delete(base).query({ permanently_remove: true, full_path: project?.full_path }).set(admin)).status;
    }
    case 'delete user':
      return (await kit.api.delete(`/api/v4/users/${user}`).query({ hard_delete: true }).set(admin)).status;
  }
}

/** Each of the world's users: the level the rules compute and the level the table holds, on every project where either is above none. */
async function compare(world: World) {
  const differences = [];
  for (const user of world.users) {
    const viewer: Viewer = { kind: 'user', userId: user.id, username: 'x', isAdmin: false, external: user.external };
    const { rows } = await sql<{ project_id: number; rules: number; stored: number }>`
      select p.id as project_id, ${projectAccessLevel(viewer)} as rules,
        coalesce((select max(a.access_level) from project_authorizations a
          where a.user_id = ${user.id} and a.project_id = p.id and a.expires_at > current_date), 0) as stored
      from projects p`.execute(db);
    for (const row of rows) {
      if (Number(row.rules) !== Number(row.stored)) differences.push({ user: user.id, ...row });
    }
  }
  return differences;
}

describe('project_authorizations', () => {
  it('holds the levels the access rules compute, after any sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 30 }), fc.array(change, { maxLength: 6 }), async (seed, changes) => {
        worlds += 1;
        const world = await generateWorld(kit, { seed, prefix: `pa${worlds}` });
        expect({ after: 'generating', differences: await compare(world) }).toEqual({ after: 'generating', differences: [] });
        for (const step of changes) {
          const status = await apply(world, step);
          expect({ step, status: status < 500 }).toEqual({ step, status: true });
          expect({ after: step, differences: await compare(world) }).toEqual({ after: step, differences: [] });
        }
      }),
      { numRuns: 30 },
    );
  });
});
