/**
 * How a project list tests the rows it walks (`projectVisibleTo`) once PostgreSQL uses a prepared
 * statement's generic plan, on the benchmark's dataset at a fifth of its size.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { seed } from '../../../../../bench/seed.ts';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';
import { projectVisibleTo } from '../access/access-sql.ts';

let kit: IdentityHarness;
let client: pg.Client;
let memberId: number;

beforeAll(async () => {
  kit = await startIdentityHarness('project-visibility-probe');
  const seeded = await seed(kit.databaseUrl, { users: 2_000, groups: 400, projects: 2_000, membersPerGroup: 15, membersPerProject: 2 });
  memberId = seeded.member.id;
  client = new pg.Client({ connectionString: kit.databaseUrl });
  await client.connect();
  await client.query('analyze');
  await client.query('set plan_cache_mode = force_generic_plan');
});

afterAll(async () => {
  await client?.end();
  await kit?.stop();
});

interface PlanNode {
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

function scansOf(plan: PlanNode, table: string): PlanNode[] {
  const own = plan['Relation Name'] === table ? [plan] : [];
  return [...own, ...(plan.Plans ?? []).flatMap((child) => scansOf(child, table))];
}

it("probes the member's authorization of each private project a page walks by its key, in the generic plan", async () => {
  const viewer = { kind: 'user', userId: memberId, username: 'member', isAdmin: false, external: false } as const;
  // A page's walk as the list's statement makes it, prepared as the services prepare it.
  const page = sql`select p.id from projects p where ${projectVisibleTo(viewer)} order by p.created_at desc, p.id desc limit 21`.compile(
    kit.service.orm.em.getKysely() as unknown as Kysely<unknown>,
  );
  await client.query(`prepare probe as ${page.sql}`);
  const values = page.parameters.map((value) => client.escapeLiteral(Array.isArray(value) ? `{${value.join(',')}}` : String(value)));
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `explain (format json) execute probe(${values.join(', ')})`,
  );
  const probes = scansOf(rows[0]!['QUERY PLAN'][0]!.Plan, 'project_authorizations');
  expect(probes.length).toBeGreaterThan(0);
  for (const probe of probes) expect(probe['Index Cond']).toMatch(/project_id = p\.id/);
});
