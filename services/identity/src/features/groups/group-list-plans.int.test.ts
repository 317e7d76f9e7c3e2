/**
 * The plans PostgreSQL makes of the group lists' statements, as the read model sends them, on the
 * benchmark's dataset at a fifth of its size with sequential scans disabled (as
 * `access-plans.int.test.ts` does): groups are a few rows among every user's personal namespace,
 * so a count or a page that reads namespaces through an index of all of them reads users' rows
 * too (root's count read the whole table, a million rows at a million users).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { seed } from '../../../../../bench/seed.ts';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';
import { ANONYMOUS, userIdOf, type Viewer } from '../access/access-sql.ts';
import { GroupsReadModel, type GroupFilter, type GroupOrder } from './groups-read-model.ts';

let harness: IdentityHarness;
let pool: pg.Pool;
let client: pg.Client;
let readModel: GroupsReadModel;
let member: Viewer;
const sent: CompiledQuery[] = [];
const root: Viewer = { kind: 'user', userId: 1, username: 'root', isAdmin: true, external: false };

beforeAll(async () => {
  harness = await startIdentityHarness('group_list_plans');
  const seeded = await seed(harness.databaseUrl, { users: 2_000, groups: 400, projects: 2_000, membersPerGroup: 15, membersPerProject: 2 });
  member = { kind: 'user', userId: seeded.member.id, username: seeded.member.username, isAdmin: false, external: false };
  pool = new pg.Pool({ connectionString: harness.databaseUrl, max: 1 });
  readModel = new GroupsReadModel(
    new Kysely<unknown>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        sent.push(event.query);
      },
    }),
  );
  client = new pg.Client({ connectionString: harness.databaseUrl });
  await client.connect();
  await client.query('set enable_seqscan = off');
});

afterAll(async () => {
  await client?.end();
  await pool?.end();
  await harness?.stop();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Subplan Name'?: string;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

/** The plan of the one statement `read` sends, run (`analyze`) with its parameters. */
async function planOf(read: () => Promise<unknown>): Promise<PlanNode[]> {
  sent.length = 0;
  await read();
  expect(sent).toHaveLength(1);
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`explain (analyze, format json) ${sent[0]!.sql}`, [
    ...sent[0]!.parameters,
  ]);
  return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
}

const listed = (viewer: Viewer, filter: GroupFilter, by: GroupOrder = 'name') =>
  planOf(() => readModel.list({ viewer, filter, order: { by, sort: 'asc' }, window: { offset: 0, limit: 20 } }));

/** The namespaces a plan reads, as `<node> using <index>`. */
const namespaceReads = (nodes: PlanNode[]) =>
  nodes
    .filter((node) => node['Relation Name'] === 'namespaces' && (node['Actual Loops'] ?? 0) > 0)
    .map((node) => `${node['Node Type']} using ${node['Index Name']}`);

/** What a plan reads of namespaces other than by key (a full name's ancestors are read by key). */
const namespaceWalks = (nodes: PlanNode[]) => namespaceReads(nodes).filter((read) => !read.endsWith('using namespaces_pkey'));

const accessPlans = (nodes: PlanNode[]) =>
  nodes.filter((node) => node['Subplan Name']?.startsWith('CTE ')).map((node) => node['Subplan Name']);

describe('group list plans', () => {
  it("reads root's total from list_counts and walks only groups in the page's order", async () => {
    const nodes = await listed(root, {});
    expect(namespaceWalks(nodes)).toEqual(['Index Scan using namespaces_groups_name_lower_idx']);
    expect(nodes.some((node) => node['Relation Name'] === 'list_counts')).toBe(true);
    expect(nodes.filter((node) => node['Relation Name'] === 'namespaces' && node['Rows Removed by Filter'])).toEqual([]);
  });

  it("counts a filtered list of root's from an index of groups alone", async () => {
    expect(namespaceWalks(await listed(root, { topLevelOnly: true }))).toEqual([
      expect.stringMatching(/^Index (Only )?Scan using namespaces_groups_\w+_idx$/),
      expect.stringMatching(/^Index (Only )?Scan using namespaces_groups_\w+_idx$/),
    ]);
  });

  it("plans nothing of the caller's access for an administrator's or an anonymous caller's list", async () => {
    expect(accessPlans(await listed(root, {}))).toEqual([]);
    expect(accessPlans(await listed(ANONYMOUS, {}))).toEqual([]);
    // An administrator's list by minimum access is decided by their access, and so is a member's.
    expect(accessPlans(await listed(root, { minAccessLevel: 30 }))).not.toEqual([]);
  });

  it("reads a member's related groups from group_relations by key, without building their access", async () => {
    for (const filter of [{ relatedOnly: true }, {}]) {
      const nodes = await listed(member, filter);
      expect(accessPlans(nodes)).toEqual([]);
      const reads = nodes.filter((node) => node['Relation Name'] === 'group_relations').map((node) => node['Index Name']);
      expect(new Set(reads)).toEqual(new Set(['group_relations_pkey']));
    }
    // The related groups are fetched by key, not by a walk of every group.
    const unkeyed = (await listed(member, { relatedOnly: true })).filter(
      (node) => node['Relation Name'] === 'namespaces' && (node['Actual Loops'] ?? 0) > 0 && node['Index Cond'] === undefined,
    );
    expect(unkeyed).toEqual([]);
  });

  it("reads a member's total from list_counts and probes their related groups closed to them by key", async () => {
    const nodes = await listed(member, {});
    expect(nodes.some((node) => node['Relation Name'] === 'list_counts')).toBe(true);
    // Only the page walks groups: counting the list's rows walked every group open to the member.
    const walks = nodes.filter(
      (node) => node['Relation Name'] === 'namespaces' && (node['Actual Loops'] ?? 0) > 0 && node['Index Cond'] === undefined,
    );
    expect(walks.map((node) => node['Index Name'])).toEqual(['namespaces_groups_name_lower_idx']);
    const { rows } = await client.query<{ count: number }>(
      `select count(*)::integer as count from namespaces n where n.kind = 'group' and (n.visibility in ('public', 'internal')
        or n.id in (select r.group_id from group_relations r where r.user_id = $1 and r.expires_at > current_date))`,
      [userIdOf(member)],
    );
    const page = await readModel.list({ viewer: member, filter: {}, order: { by: 'name', sort: 'asc' }, window: { offset: 0, limit: 20 } });
    expect(page.total).toBe(rows[0]!.count);
  });

  it("counts a member's related groups from their rows of group_relations alone", async () => {
    const nodes = await listed(member, { relatedOnly: true });
    // The page reads its groups by key; the total reads no groups.
    expect(namespaceWalks(nodes)).toEqual(['Index Scan using namespaces_groups_id_idx']);
    const { rows } = await client.query<{ count: number }>(
      `select count(*)::integer as count from namespaces n where n.kind = 'group'
        and n.id in (select r.group_id from group_relations r where r.user_id = $1 and r.expires_at > current_date)`,
      [userIdOf(member)],
    );
    const page = await readModel.list({
      viewer: member,
      filter: { relatedOnly: true },
      order: { by: 'name', sort: 'asc' },
      window: { offset: 0, limit: 20 },
    });
    expect(page.total).toBe(rows[0]!.count);
  });

  it('reads the total of the public groups an anonymous caller sees from list_counts', async () => {
    const nodes = await listed(ANONYMOUS, {}, 'path');
    expect(namespaceWalks(nodes)).toEqual(['Index Scan using namespaces_groups_path_lower_idx']);
    expect(nodes.some((node) => node['Relation Name'] === 'list_counts')).toBe(true);
  });

  it('walks only groups for a keyset page', async () => {
    const nodes = await planOf(() => readModel.listAfter({ viewer: root, filter: {}, keyset: { sort: 'asc', limit: 20 } }));
    expect(namespaceWalks(nodes)).toEqual(['Index Scan using namespaces_groups_id_idx']);
  });
});
