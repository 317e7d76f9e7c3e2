/**
 * A member's unfiltered project list, with fewer projects open to them than the count cap, counts
 * their closed projects from their authorizations, probing each project by key, in the plan
 * PostgreSQL keeps for the statement identity sends (its 7th execution), on the benchmark's
 * dataset at a fifth of its size.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { callerHeader, recordStatements, userCaller } from '@platform/testing';
import { seed, type SeededData } from '../../../../../bench/seed.ts';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let kit: IdentityHarness;
let client: pg.Client;
let seeded: SeededData;

beforeAll(async () => {
  kit = await startIdentityHarness('member-project-count-plans');
  seeded = await seed(kit.databaseUrl, { users: 2_000, groups: 400, projects: 2_000, membersPerGroup: 15, membersPerProject: 2 });
  client = new pg.Client({ connectionString: kit.databaseUrl });
  await client.connect();
  await client.query('analyze');
}, 120_000);

afterAll(async () => {
  await client?.end();
  await kit?.stop();
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
  const member = userCaller(seeded.member.id, seeded.member.username);
  let total: string | undefined;
  const sent = await recordStatements(async () => {
    total = (await kit.api.get('/api/v4/projects?per_page=20').set(callerHeader(member)).expect(200)).headers['x-total'];
  });
  // The fold's schedule (a delete from list_counts) may run while the request does; it is not the request's.
  const [statement, ...others] = sent.filter((sent) => sent.text.includes('list_counts') && !sent.text.includes('delete from list_counts'));
  expect([statement, others]).toEqual([expect.anything(), []]);
  await client.query(`prepare page as ${statement!.text}`);
  const literal = (value: unknown) => (Array.isArray(value) ? `{${value.join(',')}}` : String(value));
  const values = statement!.values.map((value) => (value === null ? 'null' : client.escapeLiteral(literal(value))));
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
  // The member's rows are walked once; each project they are authorized on is probed once.
  expect(authorizations.map((node) => [node['Index Name'], node['Actual Loops']])).toEqual([['project_authorizations_probe_idx', 1]]);
  expect(probes.map((node) => node['Actual Loops'])).toEqual([authorizations[0]!['Actual Rows']]);
  expect(nodes.filter((node) => node['Index Name'] === 'projects_visibility_id_idx')).toEqual([]);
  const [exact] = await kit.sql<{ count: number }>(
    `select count(*)::integer as count from projects p where p.visibility in ('public', 'internal')
      or exists (select 1 from project_authorizations a where a.user_id = $1 and a.project_id = p.id and a.expires_at > current_date)`,
    [seeded.member.id],
  );
  expect(Number(total)).toBe(exact?.count);
});
