/**
 * GitLab's merge_requests_closing_issues against real PostgreSQL and Kafka (identity's answers come
 * from a fake): kept as merge requests are created, edited and pushed to, across projects as far as
 * the author may read; read by an issue's `closed_by`, a merge request's `closes_issues` and merges;
 * `closed_by` reads the issue's entries by its index, not the project's merge requests.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeIdentityAccess } from '@platform/identity-client';
import { startService, type RunningService } from '@platform/service';
import { recordStatements, startServiceHarness, userCaller, waitFor, type ServiceHarness } from '@platform/testing';
import { readConfig } from '../../config.ts';
import { reviewService } from '../../main.ts';
import { BACKFILL_CLOSING_ISSUES } from '../../migrations/Migration20261127040000_merge_requests_closing_issues.ts';
import { FixedUserDirectory } from '../core/user-directory.ts';

const developer = userCaller(61, 'dev');
const reporter = userCaller(62, 'reporter');
const APP = 21;
const LIB = 22;
const SECRET = 23;
/** A project with a long history of merge requests, each closing an issue of its own. */
const BUSY = 24;
const BUSY_MERGE_REQUESTS = 500;
const access = new FakeIdentityAccess()
  .add({ resource: 'project', id: APP, path: 'acme/app', levels: { 61: 40, 62: 20 } })
  .add({ resource: 'project', id: LIB, path: 'acme/lib', levels: { 61: 30, 62: 20 } })
  .add({ resource: 'project', id: SECRET, path: 'acme/secret', levels: { 62: 20 } })
  .add({ resource: 'project', id: BUSY, path: 'acme/busy', levels: { 61: 30, 62: 20 } });
const users = new FixedUserDirectory([
  { id: 61, username: 'dev' },
  { id: 62, username: 'reporter' },
]);
let harness: ServiceHarness<RunningService>;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'review-closing-issues-'));
  harness = await startServiceHarness({
    label: 'review_closing_issues',
    env: { KAFKA_TOPIC_PREFIX: `review-test-${randomUUID()}.`, DATA_DIR: dataDir },
    start: (env) => startService(reviewService(readConfig(env), { identityAccess: access, users })),
  });
}, 120_000);

afterAll(async () => {
  await harness?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const api = (method: 'get' | 'post' | 'put', project: number, suffix: string, caller = developer) =>
  harness.api[method](`/api/v4/projects/${project}${suffix}`).set(harness.as(caller));
const newIssue = async (project: number, title: string, caller = developer) => {
  const created = await api('post', project, '/issues', caller).send({ title });
  expect(created.status).toBe(201);
  return created.body as { id: number; iid: number };
};
/** Branches made so far, by project. */
const branches = new Set<string>();
const commit = async (project: number, branch: string, message: string) => {
  const fresh = branch !== 'main' && !branches.has(`${project} ${branch}`);
  branches.add(`${project} ${branch}`);
  const created = await api('post', project, '/repository/commits').send({
    branch,
    ...(fresh ? { start_branch: 'main' } : {}),
    commit_message: message,
    actions: [{ action: 'create', file_path: `${randomUUID()}.md`, content: `${message}\n` }],
  });
  expect(created.status).toBe(201);
};
const openMergeRequest = async (project: number, body: object) => {
  const opened = await api('post', project, '/merge_requests').send(body);
  expect(opened.status).toBe(201);
  return opened.body as { id: number; iid: number };
};
const closedBy = async (project: number, issueIid: number, caller = reporter) => {
  const response = await api('get', project, `/issues/${issueIid}/closed_by`, caller);
  expect(response.status).toBe(200);
  return (response.body as Array<{ iid: number }>).map((mergeRequest) => mergeRequest.iid);
};
const closesIssues = async (project: number, mergeRequestIid: number) => {
  const response = await api('get', project, `/merge_requests/${mergeRequestIid}/closes_issues`, reporter);
  expect(response.status).toBe(200);
  return (response.body as Array<{ iid: number }>).map((issue) => issue.iid);
};
const relation = async (mergeRequestId: number) =>
  (
    await harness.sql<{ issue_id: string }>(
      'select issue_id from merge_requests_closing_issues where merge_request_id = $1 order by issue_id',
      [mergeRequestId],
    )
  ).map((row) => Number(row.issue_id));

describe('merge_requests_closing_issues', () => {
  beforeAll(async () => {
    await commit(APP, 'main', 'Add README');
    await commit(LIB, 'main', 'Add README');
  });

  it('is written as a merge request is created and rewritten when its title or description changes', async () => {
    const [first, second, third] = [await newIssue(APP, 'One'), await newIssue(APP, 'Two'), await newIssue(APP, 'Three')];
    await commit(APP, 'edits', 'Work on it');
    const opened = await openMergeRequest(APP, {
      source_branch: 'edits',
      target_branch: 'main',
      title: 'Work',
      description: `Closes #${first.iid}`,
    });
    expect(await closedBy(APP, first.iid)).toEqual([opened.iid]);

    // Removing the reference removes the entry; the new one is listed.
    expect((await api('put', APP, `/merge_requests/${opened.iid}`).send({ description: `Fixes #${second.iid}` })).status).toBe(200);
    expect(await closedBy(APP, first.iid)).toEqual([]);
    expect(await closedBy(APP, second.iid)).toEqual([opened.iid]);
    // The title counts too.
    expect((await api('put', APP, `/merge_requests/${opened.iid}`).send({ title: `Resolve #${third.iid}` })).status).toBe(200);
    expect(await closesIssues(APP, opened.iid)).toEqual([second.iid, third.iid]);
    expect(await relation(opened.id)).toEqual([second.id, third.id]);

    // A closed merge request keeps what it had, and an edit while closed changes nothing (GitLab's).
    expect((await api('put', APP, `/merge_requests/${opened.iid}`).send({ state_event: 'close' })).status).toBe(200);
    expect((await api('put', APP, `/merge_requests/${opened.iid}`).send({ description: 'Nothing' })).status).toBe(200);
    expect(await closedBy(APP, second.iid)).toEqual([opened.iid]);
    // Reopened, it reads its references again.
    expect((await api('put', APP, `/merge_requests/${opened.iid}`).send({ state_event: 'reopen' })).status).toBe(200);
    expect(await closedBy(APP, second.iid)).toEqual([]);
    expect(await closedBy(APP, third.iid)).toEqual([opened.iid]);
  });

  it("reads the commits' messages, again on each push, and nothing of a merge request into another branch", async () => {
    const issue = await newIssue(APP, 'Pushed');
    const later = await newIssue(APP, 'Pushed later');
    await commit(APP, 'pushed', `Fix the crash\n\nCloses #${issue.iid}`);
    const opened = await openMergeRequest(APP, { source_branch: 'pushed', target_branch: 'main', title: 'Pushed fix' });
    expect(await closedBy(APP, issue.iid)).toEqual([opened.iid]);

    await commit(APP, 'pushed', `Also fixes #${later.iid}`);
    expect(await closedBy(APP, later.iid)).toEqual([opened.iid]);
    expect(await closedBy(APP, issue.iid)).toEqual([opened.iid]);

    await commit(APP, 'stacked', 'Stack');
    const stacked = await openMergeRequest(APP, { source_branch: 'stacked', target_branch: 'pushed', title: `Closes #${issue.iid}` });
    expect(await relation(stacked.id)).toEqual([]);
    expect(await closedBy(APP, issue.iid)).toEqual([opened.iid]);
  });

  it('names issues of other projects the author may read, and merging closes them as the merging user', async () => {
    const own = await newIssue(APP, 'Own');
    const library = await newIssue(LIB, 'Library');
    const secret = await newIssue(SECRET, 'Secret', reporter);
    await commit(APP, 'across', 'Across');
    const opened = await openMergeRequest(APP, {
      source_branch: 'across',
      target_branch: 'main',
      title: 'Across projects',
      description: `Closes #${own.iid}, acme/lib#${library.iid} and acme/secret#${secret.iid}`,
    });
    // The author may not read acme/secret: its issue is not named.
    expect(await relation(opened.id)).toEqual([own.id, library.id]);
    // An issue's closed_by lists its own project's merge requests (GitLab's), closes_issues its own project's issues.
    expect(await closedBy(LIB, library.iid)).toEqual([]);
    expect(await closesIssues(APP, opened.iid)).toEqual([own.iid]);

    const merged = await api('put', APP, `/merge_requests/${opened.iid}/merge`);
    expect(merged.status).toBe(200);
    const state = async (project: number, iid: number) => (await api('get', project, `/issues/${iid}`, reporter)).body.state as string;
    expect(await state(APP, own.iid)).toBe('closed');
    expect(await state(LIB, library.iid)).toBe('closed');
    expect(await state(SECRET, secret.iid)).toBe('opened');
    // Merged, it stays in the relation.
    expect(await closedBy(APP, own.iid)).toEqual([opened.iid]);
  });

  it('is backfilled from the titles and descriptions of merge requests written before it', async () => {
    const issue = await newIssue(BUSY, 'Old');
    const other = await newIssue(BUSY, 'Not closed');
    await harness.sql(
      `insert into issues (project_id, iid, title, state, author_id, created_at, updated_at)
       select $1, 1000 + i, 'Busy ' || i, 'opened', 61, now(), now() from generate_series(1, $2::integer) i`,
      [BUSY, BUSY_MERGE_REQUESTS],
    );
    // Each mentions the issue without closing it, and closes one of its own.
    await harness.sql(
      `insert into merge_requests (project_id, iid, source_project_id, target_namespace_ids, source_branch, target_branch, title,
         description, state, author_id, assignee_ids, reviewer_ids, merge_status, created_at, updated_at)
       select $1, i, $1, '{3}', 'busy-' || i, 'main', 'Busy ' || i, 'See #' || $3::integer || E'\nCloses #' || (1000 + i), 'opened', 61,
         '{}', '{}', 'can_be_merged', now() - interval '1 minute' * i, now()
       from generate_series(1, $2::integer) i`,
      [BUSY, BUSY_MERGE_REQUESTS, issue.iid],
    );
    await harness.sql(
      `insert into merge_requests (project_id, iid, source_project_id, target_namespace_ids, source_branch, target_branch, title,
         description, state, author_id, merge_status, created_at, updated_at)
       values ($1, $2, $1, '{3}', 'old', 'main', 'Old fix', $3, 'merged', 61, 'can_be_merged', now(), now())`,
      [BUSY, BUSY_MERGE_REQUESTS + 1, `This fixes: #${issue.iid}; see #${other.iid}.\nImplements issue #${other.iid + 100}`],
    );
    await harness.sql(BACKFILL_CLOSING_ISSUES);
    await harness.sql('analyze merge_requests, merge_requests_closing_issues');
    expect(await closedBy(BUSY, issue.iid)).toEqual([BUSY_MERGE_REQUESTS + 1]);
    expect(await closedBy(BUSY, other.iid)).toEqual([]);
    expect(await closedBy(BUSY, 1007)).toEqual([7]);
  });

  it('is made exact by the job the migration enqueued: default branch, path forms, other projects, as the author reads them', async () => {
    const own = await newIssue(APP, 'Named by path');
    const library = await newIssue(LIB, 'Named from another project');
    const insert = async (values: { iid: number; target: string; description: string }) => {
      const [row] = await harness.sql<{ id: string }>(
        `insert into merge_requests (project_id, iid, source_project_id, target_namespace_ids, source_branch, target_branch, title,
           description, state, author_id, merge_status, created_at, updated_at)
         values ($1, $2, $1, '{3}', 'gone', $3, 'Before the relation', $4, 'merged', 61, 'can_be_merged', now(), now())
         returning id`,
        [APP, values.iid, values.target, values.description],
      );
      return Number(row?.id);
    };
    const intoSide = await insert({ iid: 900, target: 'side', description: `Closes #${own.iid}` });
    const byPath = await insert({ iid: 901, target: 'main', description: `Fixes acme/app#${own.iid} and acme/lib#${library.iid}` });
    await harness.sql(BACKFILL_CLOSING_ISSUES);
    // What SQL could see: a closing phrase into another branch counted, path forms not.
    expect([await relation(intoSide), await relation(byPath)]).toEqual([[own.id], []]);

    await harness.sql(
      `insert into background_jobs (kind, payload, max_attempts) values ('review.merge_requests_closing_issues_backfill', '{"afterId": 0}', 5)`,
    );
    await waitFor(async () => ((await relation(byPath)).length > 0 ? true : undefined), { what: 'the backfill job' });
    await waitFor(async () =>
      (await harness.sql("select 1 from background_jobs where kind like '%closing_issues%'")).length === 0 ? true : undefined,
    );
    expect([await relation(intoSide), await relation(byPath)]).toEqual([[], [own.id, library.id]]);
    expect(await closedBy(APP, own.iid)).toEqual([901]);
  });

  it("reads closed_by from the issue's entries by their index, whatever the project's merge requests", async () => {
    const [issue] = await harness.sql<{ id: string; iid: number }>('select id, iid from issues where project_id = $1 and title = $2', [
      BUSY,
      'Old',
    ]);
    if (!issue) throw new Error('the backfilled issue is missing');
    const sent = await recordStatements(async () => expect(await closedBy(BUSY, issue.iid)).toEqual([BUSY_MERGE_REQUESTS + 1]));
    const [statement] = sent.filter((each) => each.text.includes('merge_requests_closing_issues'));
    if (!statement) throw new Error('closed_by did not read merge_requests_closing_issues');
    const [{ 'QUERY PLAN': plans } = { 'QUERY PLAN': [] }] = await harness.sql<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `explain (analyze, format json) ${statement.text}`,
      statement.values,
    );
    const scans = scansOf(plans[0]?.Plan);
    expect(scans.get('merge_requests_closing_issues')).toEqual({ index: 'merge_requests_closing_issues_issue_idx', rows: 1 });
    // One merge request read, by its key: not the project's 501, nor the relation's other 500 entries.
    expect(scans.get('merge_requests')?.rows).toBe(1);
  });
});

interface PlanNode {
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Each table's scan in a plan: the index it used and the rows it read (kept or filtered out), over all loops. */
function scansOf(plan: PlanNode | undefined, scans = new Map<string, { index: string | undefined; rows: number }>()) {
  if (!plan) return scans;
  const relation = plan['Relation Name'];
  if (relation) {
    const rows = (plan['Actual Rows'] + (plan['Rows Removed by Filter'] ?? 0)) * plan['Actual Loops'];
    scans.set(relation, { index: plan['Index Name'], rows: (scans.get(relation)?.rows ?? 0) + rows });
  }
  for (const child of plan.Plans ?? []) scansOf(child, scans);
  return scans;
}
