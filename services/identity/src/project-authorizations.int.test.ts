/**
 * `project_authorizations` against the access rules (`access-sql.ts`): generated worlds of groups,
 * subgroups, projects, memberships and shares, then random sequences of changes made through the
 * API (memberships, access requests, shares, transfers, deletions). After the world is written
 * and after every change, each of the world's users must hold in the table exactly the level the
 * rules compute on every project.
 */
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { sql, type Kysely } from 'kysely';
import { startIdentityHarness, type IdentityHarness } from './testing/identity-harness.ts';
import type { World } from './testing/access-world.ts';
import { expectNoDifferencesAfterChanges } from './testing/access-changes.ts';
import { projectAccessLevelByRules, type Viewer } from './features/access/access-sql.ts';

let kit: IdentityHarness;
let db: Kysely<unknown>;

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
    await expectNoDifferencesAfterChanges(kit, { prefix: 'pa', runs: 25 }, compare);
  }, 300_000);
});
