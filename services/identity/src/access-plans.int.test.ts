/**
 * The plans PostgreSQL makes of the access rules, on the benchmark's dataset at a fifth of its
 * size (so the statistics are realistic) with sequential scans disabled, as
 * `list-indexes.int.test.ts` checks the lists:
 * - one group's or project's access starts from its ancestry: every table that grows with the
 *   platform (members, namespaces, projects) is reached through a key (no scan without an index
 *   condition), and nothing the caller can reach is materialised;
 * - list filters may build the caller's reach once per statement, from their membership rows,
 *   but reach those tables, other than the listed one, through a key.
 * Share tables are small here, and the planner may rightly walk them whole.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import pg from 'pg';
import { seed } from '../../../bench/seed.ts';
import { startIdentityHarness, type IdentityHarness } from './testing/identity-harness.ts';
import {
  accessCtes,
  groupAccessLevel,
  groupRelatedTo,
  groupVisibleTo,
  groupWithAccess,
  listedGroupVisibleTo,
  projectAccessLevel,
  projectVisibleTo,
  projectWithAccess,
  visibleProjectIds,
  type Viewer,
} from './features/access/access-sql.ts';

let harness: IdentityHarness;
let client: pg.Client;
let member: Viewer;
let sample: { groupId: number; nestedGroupId: number; projectId: number };

beforeAll(async () => {
  harness = await startIdentityHarness('access_plans');
  const seeded = await seed(harness.databaseUrl, { users: 2_000, groups: 400, projects: 2_000, membersPerGroup: 15, membersPerProject: 2 });
  member = { kind: 'user', userId: seeded.member.id, username: seeded.member.username, isAdmin: false, external: false };
  sample = seeded.sample;
  client = new pg.Client({ connectionString: harness.databaseUrl });
  await client.connect();
  await client.query('set enable_seqscan = off');
});

afterAll(async () => {
  await client?.end();
  await harness?.stop();
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Loops'?: number;
  'Relation Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

async function planOf(statement: RawBuilder<unknown>, options: { analyze?: boolean } = {}): Promise<PlanNode[]> {
  const compiled = statement.compile(harness.service.orm.em.getKysely() as unknown as Kysely<unknown>);
  const explain = options.analyze ? 'explain (analyze, format json)' : 'explain (format json)';
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`${explain} ${compiled.sql}`, [...compiled.parameters]);
  return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
}

const LARGE_TABLES = ['members', 'namespaces', 'projects'];
const unkeyed = (node: PlanNode) =>
  LARGE_TABLES.includes(node['Relation Name'] ?? '') && node['Index Cond'] === undefined && node['Recheck Cond'] === undefined;
const describeNode = (node: PlanNode) => `${node['Node Type']} on ${node['Relation Name']}`;

/** Statements deciding one group's or project's access, as the access policy and the details views write them. */
const pointChecks: Array<[string, () => RawBuilder<unknown>]> = [
  [
    'a group, its visibility and the caller access to it',
    () =>
      sql`select n.*, ${groupVisibleTo(member)}, ${groupAccessLevel(member)} from namespaces n
        where n.kind = 'group' and n.id = ${sample.nestedGroupId}`,
  ],
  [
    'a project, its visibility and the caller access to it',
    () => sql`select p.*, ${projectVisibleTo(member)}, ${projectAccessLevel(member)} from projects p where p.id = ${sample.projectId}`,
  ],
  [
    'access levels of a page of groups',
    () =>
      sql`select n.id, ${groupAccessLevel(member)} from namespaces n
        where n.id = any(${[sample.groupId, sample.nestedGroupId]}::integer[])`,
  ],
  [
    'the projects of a group the caller may see',
    () => sql`select p.* from projects p where p.namespace_id = ${sample.groupId} and ${projectVisibleTo(member)} order by p.id limit 100`,
  ],
];

/** List filters, as the group, project and namespace lists write them. */
const listFilters: Array<[string, string, () => RawBuilder<unknown>]> = [
  [
    'groups visible to the caller',
    'namespaces',
    () => sql`select n.* from namespaces n where ${listedGroupVisibleTo(member)} order by n.id limit 20`,
  ],
  [
    'groups the caller is related to',
    'namespaces',
    () => sql`select n.* from namespaces n where ${groupRelatedTo(member)} order by n.id limit 20`,
  ],
  [
    'groups with a minimum access',
    'namespaces',
    () => sql`select n.* from namespaces n where ${groupWithAccess(member, 30)} order by n.id limit 20`,
  ],
  [
    'projects visible to the caller',
    'projects',
    () => sql`select p.* from projects p where ${projectVisibleTo(member)} order by p.id limit 20`,
  ],
  [
    'projects with a minimum access',
    'projects',
    () => sql`select p.* from projects p where ${projectWithAccess(member, 20)} order by p.id limit 20`,
  ],
];

describe('access plans', () => {
  it.each(pointChecks)('%s reaches every table through a key', async (_name, statement) => {
    const nodes = await planOf(statement());
    expect(nodes.filter(unkeyed).map(describeNode)).toEqual([]);
    // Nothing the caller can reach is built.
    expect(nodes.map((node) => node['Node Type'])).not.toContain('CTE Scan');
  });

  it.each(listFilters)('%s walks at most the listed %s in order', async (_name, listed, statement) => {
    const nodes = await planOf(sql`with ${accessCtes(member)} ${statement()}`);
    expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan').map(describeNode)).toEqual([]);
    // The listed table may be walked in the list's order (the limit stops it); any other walk is a regression.
    const walks = nodes.filter(unkeyed).map(describeNode);
    expect(walks.filter((walk) => walk !== `Index Scan on ${listed}`)).toEqual([]);
    expect(walks.length).toBeLessThanOrEqual(1);
  });

  it("counts a member's visible projects up to the cap from the projects open to them, without reading their authorizations", async () => {
    // A cap of the open projects' number, as 10,001 is below it at a million projects.
    const { rows } = await client.query<{ open: number }>(
      "select count(*)::integer as open from projects where visibility = any('{public,internal}')",
    );
    const cap = rows[0]!.open;
    const nodes = await planOf(sql`select count(*) from (${visibleProjectIds(member, sql`true`)} limit ${cap}) counted`, { analyze: true });
    const read = nodes.filter((node) => (node['Actual Loops'] ?? 0) > 0 && node['Relation Name'] !== undefined);
    expect(read.map((node) => `${node['Node Type']} using ${node['Index Name']}`)).toEqual([
      'Index Only Scan using projects_visibility_id_idx',
    ]);
  });
});
