/**
 * The statements of the unfiltered lists read their totals from `list_counts`, not by counting
 * the listed table: on a seed above the count cap (10,000), the users or projects they read are
 * the page's rows, where a capped count read 10,001 index entries. The totals through the API
 * stay exact below the cap and are omitted above it, as GitLab's.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { adminCaller, callerHeader, userCaller } from '@platform/testing';
import { seed } from '../../../../../bench/seed.ts';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';
import type { Viewer } from '../access/access-sql.ts';
import { ProjectsReadModel } from '../projects/projects-read-model.ts';
import { UsersReadModel } from '../users/users-read-model.ts';

let harness: IdentityHarness;
let client: pg.Client;
let pool: pg.Pool;
let logged: Kysely<unknown>;
const sent: CompiledQuery[] = [];
let member: Viewer & { kind: 'user' };
const root: Viewer = { kind: 'user', userId: 1, username: 'root', isAdmin: true, external: false };

beforeAll(async () => {
  harness = await startIdentityHarness('list_count_plans');
  // More users than the cap, and more projects open to the member than the cap.
  const seeded = await seed(harness.databaseUrl, {
    users: 10_200,
    groups: 200,
    projects: 24_000,
    membersPerGroup: 5,
    membersPerProject: 1,
  });
  member = { kind: 'user', userId: seeded.member.id, username: seeded.member.username, isAdmin: false, external: false };
  client = new pg.Client({ connectionString: harness.databaseUrl });
  await client.connect();
  await client.query('analyze');
  pool = new pg.Pool({ connectionString: harness.databaseUrl, max: 1 });
  logged = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') sent.push(event.query);
    },
  });
}, 120_000);

afterAll(async () => {
  await logged?.destroy();
  await client?.end();
  await harness?.stop();
});

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

/** The rows each table gave the statement `read` sent last, executed under `explain analyze`. */
async function rowsRead(read: () => Promise<unknown>): Promise<Record<string, number>> {
  sent.length = 0;
  await read();
  const statement = sent[0]!;
  const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`explain (analyze, format json) ${statement.sql}`, [
    ...statement.parameters,
  ]);
  const read_: Record<string, number> = {};
  for (const node of nodesOf(rows[0]!['QUERY PLAN'][0]!.Plan)) {
    const relation = node['Relation Name'];
    if (relation) read_[relation] = (read_[relation] ?? 0) + (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 0);
  }
  return read_;
}

const window = { offset: 0, limit: 20 };

describe('unfiltered lists above the count cap', () => {
  it("root's and a member's user list read the page's users and the maintained count", async () => {
    const users = new UsersReadModel(logged, 'http://localhost');
    for (const view of ['admin', 'basic'] as const) {
      const read = await rowsRead(() => users.list({ states: [], orderBy: 'id', sort: 'desc' }, { read: { view }, window }));
      // The administrator view's subqueries read namespaces and identities by the page's users.
      expect([read.users, read.list_counts]).toEqual([21, expect.any(Number)]);
    }
  });

  it('a filtered user list still counts its rows up to the cap', async () => {
    const users = new UsersReadModel(logged, 'http://localhost');
    const read = await rowsRead(() => users.list({ states: ['active'], orderBy: 'id', sort: 'desc' }, { read: { view: 'basic' }, window }));
    expect(read.users).toBeGreaterThan(10_000);
    expect(read).not.toHaveProperty('list_counts');
  });

  it.each([
    ['root', () => root],
    ['a member', () => member],
  ])("%s's project list reads the page's projects and the maintained counts", async (_name, viewer) => {
    const projects = new ProjectsReadModel(logged);
    const read = await rowsRead(() =>
      projects.list({ viewer: viewer(), filter: {}, order: { by: 'created_at', sort: 'desc' }, window, read: { view: 'simple' } }),
    );
    // The page walks projects by creation time, testing each against the viewer: a few more than it keeps.
    expect(read.projects).toBeLessThan(100);
    expect(read.list_counts).toBeGreaterThan(0);
  });

  it('omits the totals through the API, as a capped count did', async () => {
    const rootList = await harness.api.get('/api/v4/users?per_page=5').set(callerHeader(adminCaller()));
    const memberList = await harness.api.get('/api/v4/projects?per_page=5').set(callerHeader(userCaller(member.userId, member.username)));
    for (const response of [rootList, memberList]) {
      expect([response.status, response.headers['x-total'], response.headers['x-total-pages']]).toEqual([200, undefined, undefined]);
      expect(response.body).toHaveLength(5);
    }
  });
});
