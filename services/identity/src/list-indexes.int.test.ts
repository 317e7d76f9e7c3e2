/**
 * Every filter and order the lists offer is served by an index: with sequential scans disabled,
 * the planner would still choose one (at a prohibitive cost) if no index could serve the query,
 * so a plan without a sequential scan and without a full sort proves the index exists.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startIdentityHarness, type IdentityHarness } from './testing/identity-harness.ts';

let harness: IdentityHarness;
let client: pg.Client;

beforeAll(async () => {
  harness = await startIdentityHarness('list_indexes');
  client = new pg.Client({ connectionString: harness.databaseUrl });
  await client.connect();
  await client.query('analyze');
  await client.query('set enable_seqscan = off');
});

afterAll(async () => {
  await client?.end();
  await harness?.stop();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

async function planOf(query: string): Promise<PlanNode[]> {
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`explain (format json) ${query}`);
  return nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan);
}

/** The page of a list: a filter, an order and a limit, as the stores write them. */
const lists: Array<[string, string, string]> = [];
for (const direction of ['asc', 'desc']) {
  for (const column of ['id', 'name', 'username', 'created_at', 'updated_at']) {
    lists.push([
      `users by ${column} ${direction}`,
      'users',
      `select * from users u order by u.${column} ${direction}, u.id ${direction} limit 20`,
    ]);
  }
  for (const column of ['p.id', 'lower(p.name)', 'lower(p.path)', 'p.created_at', 'p.updated_at', 'p.last_activity_at']) {
    lists.push([
      `projects by ${column} ${direction}`,
      'projects',
      `select * from projects p order by ${column} ${direction}, p.id ${direction} limit 20`,
    ]);
  }
  for (const column of ['n.id', 'lower(n.name)', 'lower(n.path)']) {
    lists.push([
      `groups by ${column} ${direction}`,
      'namespaces',
      `select * from namespaces n where n.kind = 'group' order by ${column} ${direction}, n.id ${direction} limit 20`,
    ]);
  }
}
lists.push(
  ['users after a keyset cursor', 'users', 'select * from users u where u.id > 100 order by u.id limit 21'],
  ['users by username', 'users', "select * from users u where lower(u.username) = lower('Someone') order by u.id limit 20"],
  [
    'users by search',
    'users',
    `select * from users u where (u.name ilike '%som%' or u.username ilike '%som%' or lower(u.email) = lower('som'))
    order by u.id limit 20`,
  ],
  ['users by public email search', 'users', "select * from users u where lower(u.public_email) = lower('a@b.c') order by u.id limit 20"],
  ['users by state', 'users', "select * from users u where u.state = 'blocked' order by u.id limit 20"],
  ['external users', 'users', 'select * from users u where u.external order by u.id limit 20'],
  ['users created in a window', 'users', "select * from users u where u.created_at > '2026-01-01' order by u.created_at limit 20"],
  ['users by identity', 'identities', "select * from identities i where i.provider = 'ldapmain' and lower(i.extern_uid) = lower('uid')"],
  ['users by custom attribute', 'user_custom_attributes', "select * from user_custom_attributes a where a.key = 'k' and a.value = 'v'"],
  ['projects after a keyset cursor', 'projects', 'select * from projects p where p.id > 100 order by p.id limit 21'],
  ['projects by visibility', 'projects', "select * from projects p where p.visibility = 'public' order by p.id limit 20"],
  ['projects by topic', 'projects', "select * from projects p where p.topics @> array['go'] order by p.id limit 20"],
  [
    'projects by search',
    'projects',
    `select * from projects p where (p.name ilike '%som%' or p.path ilike '%som%' or p.description ilike '%som%')
    order by p.id limit 20`,
  ],
  ['projects of namespaces', 'projects', 'select * from projects p where p.namespace_id = any(array[1, 2]) order by p.id limit 20'],
  [
    'projects by last activity',
    'projects',
    "select * from projects p where p.last_activity_at > '2026-01-01' order by p.last_activity_at limit 20",
  ],
  ['starred projects', 'project_stars', 'select project_id from project_stars where user_id = 1'],
  ['projects shared with a group', 'project_group_links', 'select project_id from project_group_links l where l.group_id = 1'],
  ['groups after a keyset cursor', 'namespaces', "select * from namespaces n where n.kind = 'group' and n.id > 100 order by n.id limit 21"],
  ['subgroups', 'namespaces', "select * from namespaces n where n.kind = 'group' and n.parent_id = 1 order by lower(n.name) limit 20"],
  ['descendant groups', 'namespaces', 'select * from namespaces n where n.traversal_ids @> array[1] order by n.id limit 20'],
  [
    'groups by search',
    'namespaces',
    "select * from namespaces n where (n.name ilike '%som%' or n.path ilike '%som%') order by n.id limit 20",
  ],
  ['a group by full path', 'namespaces', "select * from namespaces n where lower(n.full_path) = lower('a/b')"],
  ['memberships of a user', 'members', "select * from members m where m.user_id = 1 and m.source_type = 'Group'"],
  ['members of a source', 'members', "select * from members m where m.source_type = 'Group' and m.source_id = 1"],
);

describe('list indexes', () => {
  it.each(lists)('%s is served by an index', async (_name, table, query) => {
    const nodes = await planOf(query);
    expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name'])).toEqual([]);
    // An incremental sort on top of an index is fine; a full sort means no index gives the order.
    expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
    expect(nodes.some((node) => node['Relation Name'] === table)).toBe(true);
  });
});
