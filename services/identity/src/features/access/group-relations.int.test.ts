/**
 * `group_relations` against the access rules (`groupRelatedByRules` in access-sql.ts): generated
 * worlds of groups, subgroups, projects, memberships and shares, then random sequences of changes
 * made through the API (memberships, access requests, shares, new subgroups, transfers,
 * deletions). After the world is written and after every change, each user with a membership or a
 * row must hold in the table exactly the groups the rules relate them to.
 */
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { sql, type Kysely } from 'kysely';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';
import type { World } from '../../testing/access-world.ts';
import { expectNoDifferencesAfterChanges } from '../../testing/access-changes.ts';
import { groupRelatedByRules } from './access-sql.ts';

let kit: IdentityHarness;
let db: Kysely<unknown>;

beforeAll(async () => {
  kit = await startIdentityHarness('group_relations');
  db = kit.service.orm.em.getKysely() as unknown as Kysely<unknown>;
});

afterAll(async () => {
  await kit?.stop();
});

/**
 * The world's users and whoever else holds a membership or a row (the administrator who creates
 * subgroups): for each, the groups where the rules and the table disagree.
 */
async function compare(world: World) {
  const { rows: users } = await sql<{ id: number }>`select id from users
    where id = any(${world.users.map((user) => user.id)}::integer[])
      or id in (select m.user_id from members m where m.source_type = 'Group' and m.source_id = any(${world.groups.map((group) => group.id)}::integer[]))
      or id in (select r.user_id from group_relations r where r.group_id = any(${world.groups.map((group) => group.id)}::integer[]))`.execute(
    db,
  );
  const differences = [];
  for (const { id } of users) {
    const { rows } = await sql<{ group_id: number; rules: boolean; stored: boolean }>`
      select n.id as group_id, ${groupRelatedByRules({ kind: 'user', userId: id, username: 'x', isAdmin: false, external: false })} as rules,
        exists (select 1 from group_relations r where r.user_id = ${id} and r.group_id = n.id and r.expires_at > current_date) as stored
      from namespaces n where n.kind = 'group'`.execute(db);
    for (const row of rows) {
      if (row.rules !== row.stored) differences.push({ user: id, ...row });
    }
  }
  return differences;
}

describe('group_relations', () => {
  it('holds the groups the access rules relate each user to, after any sequence of changes', async () => {
    await expectNoDifferencesAfterChanges(kit, { prefix: 'gr', runs: 25 }, compare);
  }, 300_000);
});
