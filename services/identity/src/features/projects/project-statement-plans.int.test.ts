/**
 * The plans PostgreSQL keeps for the statements a project list or group details send, executed as
 * identity sends them, on the benchmark's dataset at a fifth of its size:
 * - a page's ids and total, the projects' columns by key, and group details' one statement (the
 *   group and its projects) are planned anew for the first five executions only (with the page's
 *   window bound as parameters, every execution was planned anew);
 * - a member's unfiltered list counts their closed projects by walking their authorizations and
 *   probing each project's visibility by key from an index alone, in the plan kept for the
 *   statement (its 7th execution).
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
  kit = await startIdentityHarness('project-statement-plans');
  seeded = await seed(kit.databaseUrl, { users: 2_000, groups: 400, projects: 2_000, membersPerGroup: 15, membersPerProject: 2 });
  client = new pg.Client({ connectionString: kit.databaseUrl });
  await client.connect();
  await client.query('analyze');
}, 120_000);

afterAll(async () => {
  await client?.end();
  await kit?.stop();
});

type Caller = Parameters<typeof callerHeader>[0];
const member = () => userCaller(seeded.member.id, seeded.member.username);

/**
 * The one statement a request sends whose text holds `marker`, with the values it binds, and the
 * request's answer. The list counts' fold (a delete from list_counts) and the job runner's claim
 * of it (naming `identity.fold_list_counts`), which its schedule may run while the request does,
 * are not the request's.
 */
async function statementSent(path: string, caller: Caller, marker: string) {
  let answer: { headers: Record<string, string> } | undefined;
  const sent = await recordStatements(async () => {
    answer = await kit.api.get(path).set(callerHeader(caller)).expect(200);
  });
  const statements = sent.filter(
    ({ text }) => text.includes(marker) && !text.includes('delete from list_counts') && !text.includes('background_jobs'),
  );
  expect(statements).toHaveLength(1);
  return { statement: statements[0]!, headers: answer!.headers };
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
  ['a member', member],
])("%s's project list reads its page's ids and total with the generic plan once five custom ones are made", async (who, caller) => {
  const { statement } = await statementSent('/api/v4/projects?per_page=20', caller(), 'page_total__');
  expect(await plansAfter(`page ${who}`, statement, 8)).toEqual({ generic: 3, custom: 5 });
});

it.each([
  ['root', () => adminCaller()],
  ['a member', member],
])("%s's project list reads the projects' columns with the generic plan once five custom ones are made", async (who, caller) => {
  const { statement } = await statementSent('/api/v4/projects?per_page=20', caller(), 'with ordinality as listed');
  expect(await plansAfter(`columns ${who}`, statement, 8)).toEqual({ generic: 3, custom: 5 });
});

it.each([
  ['root', () => adminCaller()],
  ['a member', member],
])("%s's group details read the group and its projects with the generic plan once five custom ones are made", async (who, caller) => {
  const { statement } = await statementSent(`/api/v4/groups/${seeded.sample.groupId}`, caller(), 'from projects p');
  expect(await plansAfter(`group details ${who}`, statement, 8)).toEqual({ generic: 3, custom: 5 });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

it("counts a member's closed projects by walking their authorizations and probing each project by key", async () => {
  const { statement, headers } = await statementSent('/api/v4/projects?per_page=20', member(), 'list_counts');
  await client.query(`prepare page as ${statement.text}`);
  const literal = (value: unknown) => (Array.isArray(value) ? `{${value.join(',')}}` : String(value));
  const values = statement.values.map((value) => (value === null ? 'null' : client.escapeLiteral(literal(value))));
  for (let execution = 0; execution < 6; execution++) await client.query(`execute page(${values.join(', ')})`);
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `explain (analyze, format json) execute page(${values.join(', ')})`,
  );
  const nodes = nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
  // The page's own probes of the private projects it walks name the project; the count's walk does not.
  const authorizations = nodes.filter(
    (node) => node['Relation Name'] === 'project_authorizations' && !/project_id/.test(node['Index Cond'] ?? ''),
  );
  const probes = nodes.filter((node) => node['Relation Name'] === 'projects' && /id = a\.project_id/.test(node['Index Cond'] ?? ''));
  // The member's rows are walked once; each project they are authorized on is probed once, from
  // the index alone (its visibility is included), not the index and the row's heap page.
  expect(authorizations.map((node) => [node['Index Name'], node['Actual Loops']])).toEqual([['project_authorizations_probe_idx', 1]]);
  expect(probes.map((node) => [node['Node Type'], node['Index Name'], node['Actual Loops']])).toEqual([
    ['Index Only Scan', 'projects_id_visibility_idx', authorizations[0]!['Actual Rows']],
  ]);
  expect(nodes.filter((node) => node['Index Name'] === 'projects_visibility_id_idx')).toEqual([]);
  const [exact] = await kit.sql<{ count: number }>(
    `select count(*)::integer as count from projects p where p.visibility in ('public', 'internal')
      or exists (select 1 from project_authorizations a where a.user_id = $1 and a.project_id = p.id and a.expires_at > current_date)`,
    [seeded.member.id],
  );
  expect(Number(headers['x-total'])).toBe(exact?.count);
});
