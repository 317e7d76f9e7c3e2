/**
 * The seed loads users without the users trigger and builds indexes after the load, for speed:
 * the rows must still be exactly what the service would hold.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
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
  return rows.map((row) => row.indexdef);
}

describe('bench seed', () => {
  it('gives every user the namespace the users trigger makes, and leaves indexes and trigger as migrated', async () => {
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
});
