/**
 * The merge request lists' read path against real PostgreSQL (identity's answers come from a fake):
 * a page, its total and each merge request's notes count, votes and milestone are read without
 * entities, and show what the single merge request (read through its entity) shows.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { countHydrations, recordStatements, startServiceHarness, userCaller, waitFor, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';

const PROJECT = 17;
/** A project with a long history: its pages are judged by the statements, calls and rows they take. */
const BUSY_PROJECT = 18;
const BUSY_MERGE_REQUESTS = 300;
const NOTES_PER_MERGE_REQUEST = 4;
const developer = userCaller(51, 'developer');
const reviewer = userCaller(52, 'reviewer');

/** Counts identity's answers about a project (CheckAccess) and about users (GetUsers). */
class CountingIdentityAccess extends FakeIdentityAccess {
  projectCalls = 0;

  override async project(options: Parameters<FakeIdentityAccess['project']>[0]) {
    this.projectCalls += 1;
    return super.project(options);
  }
}
class CountingUserDirectory extends FixedUserDirectory {
  usersCalls = 0;

  override async users(ids: number[]) {
    this.usersCalls += 1;
    return super.users(ids);
  }
}
const access = new CountingIdentityAccess()
  .add({ resource: 'project', id: PROJECT, path: 'acme/app', levels: { 51: 30, 52: 30 } })
  .add({ resource: 'project', id: BUSY_PROJECT, path: 'acme/busy', levels: { 51: 30 } });
const users = new CountingUserDirectory([
  { id: 51, username: 'developer' },
  { id: 52, username: 'reviewer' },
]);
let harness: ServiceHarness<RunningService>;
let dataDir: string;

/** Inserts a merge request row as the service writes one; answers its id. */
async function insertMergeRequest(values: { iid: number; title: string; state?: string; milestoneId?: number | null; labels?: string[] }) {
  const [row] = await harness.sql<{ id: string }>(
    `insert into merge_requests (project_id, iid, source_project_id, target_namespace_ids, source_branch, target_branch, title,
       description, state, author_id, assignee_ids, reviewer_ids, labels, milestone_id, merge_status, head_sha,
       time_estimate, total_time_spent, created_at, updated_at, merged_by_id, merged_at)
     values ($1, $2, $1, '{3}', $3, 'main', $4, 'Does *things*', $5, 51, '{52}', '{52}', $6, $7, 'can_be_merged', 'abc123',
       3600, 60, now() - interval '1 hour' * $2::integer, now(), $8, $9)
     returning id`,
    [
      PROJECT,
      values.iid,
      `feature-${values.iid}`,
      values.title,
      values.state ?? 'opened',
      values.labels ?? [],
      values.milestoneId ?? null,
      values.state === 'merged' ? 52 : null,
      values.state === 'merged' ? new Date() : null,
    ],
  );
  return Number(row?.id);
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'review-merge-request-lists-'));
  harness = await startServiceHarness({
    label: 'review_merge_request_lists',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users })),
  });
  const [milestone] = await harness.sql<{ id: string }>(
    `insert into milestones (project_id, iid, title, state, due_date, created_at, updated_at)
     values ($1, 1, 'v1', 'active', '2030-01-31', now(), now()) returning id`,
    [PROJECT],
  );
  const first = await insertMergeRequest({ iid: 1, title: 'First', milestoneId: Number(milestone?.id), labels: ['bug'] });
  await insertMergeRequest({ iid: 2, title: 'Second', state: 'merged' });
  await harness.sql(
    `insert into notes (project_id, noteable_type, noteable_id, noteable_iid, author_id, body, system, discussion_id, created_at, updated_at)
     values ($1, 'MergeRequest', $2, 1, 52, 'Looks good', false, md5('first'), now(), now()),
            ($1, 'MergeRequest', $2, 1, 52, 'changed the description', true, md5('second'), now(), now())`,
    [PROJECT, first],
  );
  await harness.sql(
    `insert into award_emoji (name, user_id, awardable_type, awardable_id, created_at, updated_at)
     values ('thumbsup', 51, 'MergeRequest', $1, now(), now()), ('thumbsup', 52, 'MergeRequest', $1, now(), now()),
            ('thumbsdown', 52, 'MergeRequest', $1, now(), now())`,
    [first],
  );
  await harness.sql(
    `insert into merge_requests (project_id, iid, source_project_id, target_namespace_ids, source_branch, target_branch, title,
       description, state, author_id, assignee_ids, reviewer_ids, merge_status, created_at, updated_at)
     select $1, i, $1, '{3}', 'busy-' || i, 'main', 'Busy ' || i, '', 'opened', 51, '{52}', '{51,52}', 'can_be_merged',
       now() - interval '1 minute' * i, now()
     from generate_series(1, $2::integer) i`,
    [BUSY_PROJECT, BUSY_MERGE_REQUESTS],
  );
  await harness.sql(
    `insert into notes (project_id, noteable_type, noteable_id, noteable_iid, author_id, body, system, discussion_id, created_at, updated_at)
     select $1, 'MergeRequest', mr.id, mr.iid, 52, 'Note ' || n, n = 1, md5(mr.id || '-' || n), now(), now()
     from merge_requests mr cross join generate_series(1, $2::integer) n where mr.project_id = $1`,
    [BUSY_PROJECT, NOTES_PER_MERGE_REQUEST],
  );
  await harness.sql('analyze merge_requests, notes, award_emoji, merge_request_auto_merges');
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const list = `/api/v4/projects/${PROJECT}/merge_requests`;

describe('the merge request lists read path', () => {
  it('answers GET /projects/:id/merge_requests without hydrating a single entity', async () => {
    const requests = [
      list,
      `${list}?view=simple`,
      `${list}?state=opened&labels=bug&order_by=title&sort=asc`,
      `${list}?milestone=v1&scope=all&per_page=1&page=2`,
      `${list}?assignee_id=52&reviewer_id=any&search=first&wip=no`,
    ];
    const statuses: number[] = [];
    const hydrations = await countHydrations(async () => {
      for (const path of requests) statuses.push((await harness.api.get(path).set(harness.as(developer))).status);
    });
    expect(statuses).toEqual(requests.map(() => 200));
    expect(hydrations).toBe(0);
  });

  it('nests the notes count, votes and milestone, and pages with GitLab headers', async () => {
    const response = await harness.api.get(`${list}?per_page=1`).set(harness.as(reviewer));
    expect(response.headers['x-total']).toBe('2');
    expect(response.headers['x-next-page']).toBe('2');
    expect(response.body).toHaveLength(1);
    expect(response.body[0]).toMatchObject({
      iid: 1,
      user_notes_count: 1,
      upvotes: 2,
      downvotes: 1,
      labels: ['bug'],
      milestone: { iid: 1, title: 'v1', due_date: '2030-01-31', start_date: null },
      author: { id: 51, username: 'developer' },
      assignees: [{ id: 52, username: 'reviewer' }],
      reviewers: [{ id: 52, username: 'reviewer' }],
      references: { short: '!1', relative: '!1', full: 'acme/app!1' },
    });
  });

  it('shows in the list what the single merge request shows', async () => {
    const listed = (await harness.api.get(list).set(harness.as(developer))).body as Array<Record<string, unknown>>;
    for (const item of listed) {
      const single = (await harness.api.get(`${list}/${item.iid as number}`).set(harness.as(developer))).body as Record<string, unknown>;
      // The single view's milestone has `expired` and `web_url`, and its status weighs approvals.
      const { milestone, detailed_merge_status: _status, ...common } = item;
      expect(JSON.stringify(Object.fromEntries(Object.keys(common).map((key) => [key, single[key]])))).toBe(JSON.stringify(common));
      expect(single.milestone ?? null).toEqual(milestone === null ? null : expect.objectContaining(milestone as object));
    }
    expect(listed.map((item) => item.iid)).toEqual([1, 2]);
  });

  it('reads a page of 20 in one statement, asking identity once for the project and once for the users', async () => {
    const page = `/api/v4/projects/${BUSY_PROJECT}/merge_requests?per_page=20`;
    // One-off jobs (the closing issues backfill a migration enqueued reads every merge request) run beside requests.
    await waitFor(
      async () => {
        const [queued] = await harness.sql<{ count: number }>(
          `select count(*)::int as count from background_jobs where not recurring and state in ('pending', 'running')`,
        );
        return queued?.count === 0 ? true : undefined;
      },
      { timeoutMs: 60_000, what: 'the one-off background jobs' },
    );
    await harness.api.get(page).set(harness.as(developer));
    access.projectCalls = 0;
    users.usersCalls = 0;
    let body: unknown[] = [];
    const sent = await recordStatements(async () => {
      body = (await harness.api.get(page).set(harness.as(developer)).expect(200)).body as unknown[];
    });
    expect(body).toHaveLength(20);
    expect(sent.filter((statement) => !BACKGROUND.test(statement.text))).toHaveLength(1);
    expect({ checkAccess: access.projectCalls, getUsers: users.usersCalls }).toEqual({ checkAccess: 1, getUsers: 1 });
  });

  it("reads the page's merge requests and their own notes only, whatever the project's history", async () => {
    const page = `/api/v4/projects/${BUSY_PROJECT}/merge_requests?per_page=20`;
    const sent = await recordStatements(() => harness.api.get(page).set(harness.as(developer)).expect(200));
    const [statement] = sent.filter((each) => each.text.includes('from merge_requests mr'));
    if (!statement) throw new Error('the page was not read from merge_requests');
    const [{ 'QUERY PLAN': plans } = { 'QUERY PLAN': [] }] = await harness.sql<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `explain (analyze, format json) ${statement.text}`,
      statement.values,
    );
    const read = rowsRead(plans[0]?.Plan);
    // The capped count reads the merge requests (or their index entries); the page 21 of them, and one more to close their order.
    expect(read.get('merge_requests')).toBeLessThanOrEqual(BUSY_MERGE_REQUESTS + 2 + 22);
    expect(read.get('notes') ?? 0).toBeLessThanOrEqual(21 * (NOTES_PER_MERGE_REQUEST - 1));
  });
});

/** What the service does beside requests: its job runner's and outbox relay's polls. */
const BACKGROUND = /background_jobs|outbox|pg_locks|advisory/;

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** The rows each table's scans in a plan read (kept or filtered out), over all their loops. */
function rowsRead(plan: PlanNode | undefined, read = new Map<string, number>()): Map<string, number> {
  if (!plan) return read;
  const relation = plan['Relation Name'];
  if (relation) {
    const rows = plan['Actual Rows'] + (plan['Rows Removed by Filter'] ?? 0) + (plan['Rows Removed by Index Recheck'] ?? 0);
    read.set(relation, (read.get(relation) ?? 0) + rows * plan['Actual Loops']);
  }
  for (const child of plan.Plans ?? []) rowsRead(child, read);
  return read;
}
