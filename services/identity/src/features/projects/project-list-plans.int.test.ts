/** What a project list's page costs PostgreSQL: its statements and the rows their plans read, at a deep offset. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AuthenticatedCaller } from '@platform/auth';
import { recordStatements } from '@platform/testing';
import { startIdentityHarness, type IdentityHarness } from '../../testing/identity-harness.ts';

let kit: IdentityHarness;
let owner: AuthenticatedCaller;
const PROJECTS = 26;
const PER_PAGE = 5;

beforeAll(async () => {
  kit = await startIdentityHarness('project-list-plans');
  owner = await kit.createCaller('plp-owner');
  const group = await kit.api
    .post('/api/v4/groups')
    .set(kit.as(owner))
    .send({ name: 'Plans', path: 'plp-group', visibility: 'public' })
    .expect(201);
  for (let index = 0; index < PROJECTS; index++) {
    await kit.api
      .post('/api/v4/projects')
      .set(kit.as(owner))
      .send({ name: `P${index}`, path: `p${index}`, namespace_id: group.body.id, visibility: 'public' })
      .expect(201);
  }
});

afterAll(async () => {
  await kit?.stop();
});

/** The statements of a request that read projects (the caller's own row and background polls left out). */
async function projectStatements(path: string) {
  let body: Array<{ id: number; namespace: { full_path: string } }> = [];
  const sent = await recordStatements(async () => {
    body = (await kit.api.get(path).set(kit.as(owner)).expect(200)).body;
  });
  return { body, statements: sent.filter((statement) => /from projects p\b|join projects p\b/.test(statement.text)) };
}

/** How many times each table is scanned by each statement of a request's that reads projects, for an `explain analyze` of it. */
async function scansOf(path: string) {
  const { body, statements } = await projectStatements(path);
  const scans = [];
  for (const statement of statements) {
    const [{ 'QUERY PLAN': plans } = { 'QUERY PLAN': [] }] = await kit.sql<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `explain (analyze, format json) ${statement.text}`,
      statement.values,
    );
    scans.push(loopsOf(plans[0]?.Plan));
  }
  return { body, scans };
}

describe("a project list's page", () => {
  it.each([
    ['the full view', ''],
    ['the simple view', '&simple=true'],
  ])(
    'in %s, reads its ids and total in one statement and the columns of its own rows by key in a second, however deep its offset',
    async (_view, query) => {
      const first = await scansOf(`/api/v4/projects?per_page=${PER_PAGE}&order_by=id&sort=asc${query}`);
      const deep = await scansOf(`/api/v4/projects?per_page=${PER_PAGE}&page=5&order_by=id&sort=asc${query}`);
      expect(deep.body.map((project) => project.namespace.full_path)).toEqual(Array(PER_PAGE).fill('plp-group'));
      expect([first.scans.length, deep.scans.length]).toEqual([2, 2]);
      // The page (offset 20 walks 26 projects' ids) reads no namespace and no star; its 5 rows' are read
      // once each, as the first page's are.
      for (const table of ['namespaces', 'project_stars']) expect(deep.scans[0]?.get(table) ?? 0).toBe(0);
      expect(deep.scans[1]?.get('project_stars')).toBe(PER_PAGE);
      expect(deep.scans[1]?.get('namespaces')).toBe(first.scans[1]?.get('namespaces'));
    },
  );

  it('answers the rows of a deep page as a page from the start holding them answers them', async () => {
    const all = (await kit.api.get(`/api/v4/projects?per_page=100&order_by=id&sort=asc`).set(kit.as(owner)).expect(200)).body as unknown[];
    const deep = (await kit.api.get(`/api/v4/projects?per_page=${PER_PAGE}&page=5&order_by=id&sort=asc`).set(kit.as(owner)).expect(200))
      .body as unknown[];
    expect(deep).toEqual(all.slice(4 * PER_PAGE, 5 * PER_PAGE));
  });
});

interface PlanNode {
  'Relation Name'?: string;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** How many times each table is scanned in a plan, over all loops of every scan of it. */
function loopsOf(plan: PlanNode | undefined, loops = new Map<string, number>()): Map<string, number> {
  if (!plan) return loops;
  const relation = plan['Relation Name'];
  if (relation) loops.set(relation, (loops.get(relation) ?? 0) + plan['Actual Loops']);
  for (const child of plan.Plans ?? []) loopsOf(child, loops);
  return loops;
}
