/**
 * The statement that reads a page's or group details' project columns by key keeps its generic
 * plan: executed as identity sends it, PostgreSQL plans it anew for the first five executions
 * only, for root and for a member alike, on the benchmark's dataset at a fifth of its size.
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
  kit = await startIdentityHarness('project-columns-plans');
  seeded = await seed(kit.databaseUrl, { users: 2_000, groups: 400, projects: 2_000, membersPerGroup: 15, membersPerProject: 2 });
  client = new pg.Client({ connectionString: kit.databaseUrl });
  await client.connect();
  await client.query('analyze');
}, 120_000);

afterAll(async () => {
  await client?.end();
  await kit?.stop();
});

/** The statement reading the projects' columns by key that a request sends, with the values it binds. */
async function columnsStatement(path: string, caller: Parameters<typeof callerHeader>[0]) {
  const sent = await recordStatements(() => kit.api.get(path).set(callerHeader(caller)).expect(200));
  const statements = sent.filter((statement) => statement.text.includes('with ordinality as listed'));
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
  ['root', 'group details', () => adminCaller(), () => `/api/v4/groups/${seeded.sample.groupId}`],
  [
    'a member',
    'group details',
    () => userCaller(seeded.member.id, seeded.member.username),
    () => `/api/v4/groups/${seeded.sample.groupId}`,
  ],
  ['root', 'a project list', () => adminCaller(), () => '/api/v4/projects?per_page=20'],
  ['a member', 'a project list', () => userCaller(seeded.member.id, seeded.member.username), () => '/api/v4/projects?per_page=20'],
])("%s's %s read the projects' columns with the generic plan once five custom ones are made", async (who, what, caller, path) => {
  const statement = await columnsStatement(path(), caller());
  const plans = await plansAfter(`columns ${who} ${what}`, statement, 8);
  expect(plans).toEqual({ generic: 3, custom: 5 });
});
