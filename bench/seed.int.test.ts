/**
 * The seed loads users without the users trigger, fills project_authorizations once after the
 * load instead of through its triggers, and builds indexes after the load, for speed: the rows
 * must still be exactly what the service would hold.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { projectAccessLevelByRules } from '../services/identity/src/features/access/access-sql.ts';
import { startIdentityHarness, type IdentityHarness } from '../services/identity/src/testing/identity-harness.ts';
import { seed, type SeedSize } from './seed.ts';

const SIZE: SeedSize = { users: 300, groups: 30, projects: 300, membersPerGroup: 2, membersPerProject: 1 };

let harness: IdentityHarness;
let client: pg.Client;

beforeAll(async () => {
  harness = await startIdentityHarness('bench_seed');
  client = new pg.Client({ connectionString: harness.databaseUrl });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  await harness?.stop();
});

async function indexDefinitions(): Promise<string[]> {
  const { rows } = await client.query<{ indexdef: string }>(
    "select indexdef from pg_indexes where schemaname = 'public' order by indexname",
  );
  const { rows: constraints } = await client.query<{ definition: string }>(
    `select conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) as definition
     from pg_constraint where connamespace = 'public'::regnamespace order by 1`,
  );
  return [...rows.map((row) => row.indexdef), ...constraints.map((row) => row.definition)];
}

describe('bench seed', () => {
  it('gives every user the namespace the users trigger makes, and leaves indexes, constraints and trigger as migrated', async () => {
    const migratedIndexes = await indexDefinitions();
    const first = await seed(harness.databaseUrl, SIZE);
    expect(await indexDefinitions()).toEqual(migratedIndexes);

    // A user created the ordinary way gets its namespace from the trigger (so it is enabled again):
    // every seeded user's namespace must have that row's shape, with its own names and ids.
    await client.query("insert into users (username, email, name) values ('trigger-made', 'trigger-made@example.com', 'Trigger Made')");
    const perUser = "array['id', 'created_at', 'updated_at', 'name', 'path', 'full_path', 'owner_id', 'traversal_ids']";
    const { rows } = await client.query<{ username: string }>(
      `with model as (
         select to_jsonb(n) - ${perUser} as shape from namespaces n join users u on n.owner_id = u.id and n.kind = 'user'
         where u.username = 'trigger-made')
       select u.username from users u left join namespaces n on n.owner_id = u.id and n.kind = 'user'
       where u.username like 'seed-user-%'
         and (n.id is null or to_jsonb(n) - ${perUser} is distinct from (select shape from model)
              or (n.name, n.path, n.full_path, n.traversal_ids) is distinct from (u.name, u.username, u.username, array[n.id]))`,
    );
    expect(rows).toEqual([]);
    const { rows: counts } = await client.query<{ users: string; namespaces: string }>(
      "select (select count(*) from users) as users, (select count(*) from namespaces where kind = 'user') as namespaces",
    );
    expect(counts[0]?.namespaces).toBe(counts[0]?.users);

    // Seeding again leaves the data as it is.
    const again = await seed(harness.databaseUrl, SIZE);
    expect(again.counts).toEqual({ ...first.counts, users: first.counts.users + 1 });
  });

  it('fills project_authorizations once, with the levels the access rules give, and leaves its triggers enabled', async () => {
    await seed(harness.databaseUrl, SIZE);
    const count = async () => Number((await client.query<{ count: string }>('select count(*) from project_authorizations')).rows[0]?.count);
    const stored = await count();
    expect(stored).toBeGreaterThan(SIZE.projects);

    // Each row written once: no statement of the load recomputed rows that a later one replaced.
    // The seed's connection reports its counts when it ends, a moment after the seed returns.
    const written = async () =>
      (
        await client.query<{ inserted: string; deleted: string }>(
          "select n_tup_ins as inserted, n_tup_del as deleted from pg_stat_user_tables where relname = 'project_authorizations'",
        )
      ).rows[0];
    const deadline = Date.now() + 15_000;
    while (Number((await written())?.inserted ?? 0) === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const { inserted, deleted } = (await written()) ?? {};
    expect({ inserted: Number(inserted), deleted: Number(deleted) }).toEqual({ inserted: stored, deleted: 0 });

    // A sample of the seeded users (the benchmark's member among them): on every project, the
    // table's highest current level is the rules' level.
    const db = harness.service.orm.em.getKysely() as Parameters<ReturnType<typeof projectAccessLevelByRules>['compile']>[0];
    const { rows: users } = await client.query<{ id: number }>(
      "select id from users where username like 'seed-user-%' and id % 5 = 1 or username = 'seed-user-1' order by id",
    );
    expect(users.length).toBeGreaterThan(SIZE.users / 10);
    const differences = [];
    for (const { id } of users) {
      const rules = projectAccessLevelByRules({ kind: 'user', userId: id, username: 'x', isAdmin: false, external: false }).compile(db);
      const { rows } = await client.query<{ project_id: number; rules: number; stored: number }>(
        `select p.id as project_id, ${rules.sql} as rules,
           coalesce((select max(a.access_level) from project_authorizations a
             where a.user_id = $${rules.parameters.length + 1} and a.project_id = p.id and a.expires_at > current_date), 0) as stored
         from projects p`,
        [...rules.parameters, id],
      );
      for (const row of rows) if (Number(row.rules) !== Number(row.stored)) differences.push({ user: id, ...row });
    }
    expect(differences).toEqual([]);

    // The triggers keep the table again after the seed: a new membership is in it at once.
    const { rows: pair } = await client.query<{ user_id: number; project_id: number }>(
      `select u.id as user_id, p.id as project_id from users u cross join projects p
       where u.username like 'seed-user-%' and not exists (select 1 from project_authorizations a where a.user_id = u.id and a.project_id = p.id)
       order by u.id, p.id limit 1`,
    );
    const [{ user_id: userId, project_id: projectId }] = pair as [{ user_id: number; project_id: number }];
    await client.query("insert into members (source_type, source_id, user_id, access_level) values ('Project', $1, $2, 40)", [
      projectId,
      userId,
    ]);
    const { rows: granted } = await client.query('select access_level from project_authorizations where user_id = $1 and project_id = $2', [
      userId,
      projectId,
    ]);
    expect(granted).toEqual([{ access_level: 40 }]);
  });
});
