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
import { startIdentityHarness, type IdentityHarness } from './testing/identity-harness.ts';
import { generateWorld, type World } from './testing/access-world.ts';
import { apply, change } from './testing/access-changes.ts';
import { projectAccessLevelByRules, type Viewer } from './features/access/access-sql.ts';

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

/** Each of the world's users: the level the rules compute and the level the table holds, on every project where either is above none. */
async function compare(world: World) {
  const differences = [];
  for (const user of world.users) {
    const viewer: Viewer = { kind: 'user', userId: user.id, username: 'x', isAdmin: false, external: user.external };
    const { rows } = await sql<{ project_id: number; rules: number; stored: number }>`
      select p.id as project_id, ${projectAccessLevelByRules(viewer)} as rules,
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
          const status = await apply(kit, world, step);
          expect({ step, status: status < 500 }).toEqual({ step, status: true });
          expect({ after: step, differences: await compare(world) }).toEqual({ after: step, differences: [] });
        }
      }),
      // A failure names its world's seed and changes; shrinking would build a new world per attempt.
      { numRuns: 25, endOnFailure: true },
    );
  }, 300_000);
});
