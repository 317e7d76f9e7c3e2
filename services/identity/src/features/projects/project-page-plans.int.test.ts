/**
 * The statement that reads a project list's page (its ids and total) keeps its generic plan:
 * executed as identity sends it, PostgreSQL plans it anew for the first five executions only,
 * for root (maintained total) and for a member (maintained total plus the closed projects
 * authorized to them), on the benchmark's dataset at a fifth of its size. With the window's
 * bounds bound as parameters, every execution was planned anew.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { adminCaller, callerHeader, recordStatements, userCaller } from '@platform/testing';
import { seed, type SeededData } from '../../../../../bench/seed.ts';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let kit: IdentityHarness;
let client: pg.Client;
let seeded: SeededData;

beforeAll(async () => {
  kit = await startIdentityHarness('project-page-plans');
  seeded = await seed(kit.databaseUrl, { users: 2_000, groups: 400, projects: 2_000, membersPerGroup: 15, membersPerProject: 2 });
  client = new pg.Client({ connectionString: kit.databaseUrl });
  await client.connect();
  await client.query('analyze');
}, 120_000);

afterAll(async () => {
  await client?.end();
  await kit?.stop();
});

/** The statement reading a page's ids and total that a request sends, with the values it binds. */
async function pageStatement(path: string, caller: Parameters<typeof callerHeader>[0]) {
  const sent = await recordStatements(() => kit.api.get(path).set(callerHeader(caller)).expect(200));
  const statements = sent.filter((statement) => statement.text.includes('page_total__'));
  expect(statements).toHaveLength(1);
  return statements[0]!;
}

/** How `pg_prepared_statements` counts the plans of the statement after `executions` executions of it. */
async function plansAfter(name: string, statement: { text: string; values: unknown[] }, executions: number) {
  for (let execution = 0; execution < executions; execution++) await client.query({ name, text: statement.text, values: statement.values });
  const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
    'select generic_plans, custom_plans from pg_prepared_statements where name = $1',
    [name],
  );
  return { generic: Number(rows[0]!.generic_plans), custom: Number(rows[0]!.custom_plans) };
}

it.each([
  ['root', () => adminCaller()],
  ['a member', () => userCaller(seeded.member.id, seeded.member.username)],
])("%s's project list reads its page's ids and total with the generic plan once five custom ones are made", async (who, caller) => {
  const statement = await pageStatement('/api/v4/projects?per_page=20', caller());
  const plans = await plansAfter(`page ${who}`, statement, 8);
  expect(plans).toEqual({ generic: 3, custom: 5 });
});
