import { sql, type Kysely, type RawBuilder } from 'kysely';
import { bigintNumber, isoTimestamp, likePattern, mapPage, readPage, selectList, type Page, type PageWindow } from '@platform/db';
import { DOWNVOTE, UPVOTE } from '../core/votes.ts';
import type { Presence } from '../core/label-filter.ts';
import type { ListedMergeRequest, SimpleMergeRequest } from './merge-request-views.ts';
import type { MergeRequestFilter, MergeRequestOrder } from './merge-requests-store.ts';

/** One diff version's commits (after base, up to head; none before the first version) and a merge request's merge and squash commits. */
export interface CommitRange {
  mergeRequestId: number;
  baseCommitSha: string | null;
  headCommitSha: string | null;
  mergeCommitSha: string | null;
  squashCommitSha: string | null;
}

/** GitLab's two merge request list views: `view=simple`, or the full one. */
export type MergeRequestListView = 'simple' | 'full';
export type MergeRequestRow<View extends MergeRequestListView> = View extends 'simple' ? SimpleMergeRequest : ListedMergeRequest;

const SIMPLE_COLUMNS: Record<keyof SimpleMergeRequest, string> = {
  id: bigintNumber('mr.id'),
  iid: 'mr.iid',
  projectId: bigintNumber('mr.project_id'),
  title: 'mr.title',
  description: 'mr.description',
  state: 'mr.state',
  createdAt: isoTimestamp('mr.created_at'),
  updatedAt: isoTimestamp('mr.updated_at'),
};

const votes = (name: string) =>
  `(select count(*)::integer from award_emoji e where e.awardable_type = 'MergeRequest' and e.awardable_id = mr.id and e.name = '${name}')`;

const LISTED_COLUMNS: Record<keyof ListedMergeRequest, string> = {
  ...SIMPLE_COLUMNS,
  sourceProjectId: bigintNumber('mr.source_project_id'),
  sourceBranch: 'mr.source_branch',
  targetBranch: 'mr.target_branch',
  draft: 'mr.draft',
  authorId: bigintNumber('mr.author_id'),
  assigneeIds: bigintNumber('mr.assignee_ids', { array: true }),
  reviewerIds: bigintNumber('mr.reviewer_ids', { array: true }),
  labels: 'mr.labels',
  squash: 'mr.squash',
  forceRemoveSourceBranch: 'mr.force_remove_source_branch',
  allowCollaboration: 'mr.allow_collaboration',
  discussionLocked: 'mr.discussion_locked',
  approvalsBeforeMerge: 'mr.approvals_before_merge',
  mergeStatus: 'mr.merge_status',
  fastForwardPossible: 'mr.fast_forward_possible',
  headSha: 'mr.head_sha',
  mergeCommitSha: 'mr.merge_commit_sha',
  squashCommitSha: 'mr.squash_commit_sha',
  mergedById: bigintNumber('mr.merged_by_id'),
  mergedAt: isoTimestamp('mr.merged_at'),
  closedById: bigintNumber('mr.closed_by_id'),
  closedAt: isoTimestamp('mr.closed_at'),
  timeEstimate: 'mr.time_estimate',
  totalTimeSpent: 'mr.total_time_spent',
  // Scalar subqueries, evaluated for the page's rows only; as `exists` PostgreSQL may plan them as a
  // hashed subplan that reads every note (every automatic merge) of the database first.
  userNotesCount: '(select count(*)::integer from notes n where n.merge_request_id = mr.id and not n.system)',
  blockingDiscussionsResolved:
    'coalesce((select false from notes n where n.merge_request_id = mr.id and n.resolvable and n.resolved_at is null limit 1), true)',
  mergeWhenPipelineSucceeds: 'coalesce((select true from merge_request_auto_merges a where a.merge_request_id = mr.id), false)',
  upvotes: votes(UPVOTE),
  downvotes: votes(DOWNVOTE),
  // The project's milestone or one of its groups'; a milestone of another project (the merge request moved) is none.
  milestone: `(select json_build_object('id', m.id, 'iid', m.iid, 'projectId', m.project_id, 'groupId', m.group_id, 'title', m.title,
      'description', m.description, 'state', m.state, 'createdAt', ${isoTimestamp('m.created_at')},
      'updatedAt', ${isoTimestamp('m.updated_at')}, 'dueDate', m.due_date, 'startDate', m.start_date)
    from milestones m where m.id = mr.milestone_id and (m.project_id = mr.project_id or m.group_id = any(mr.target_namespace_ids)))`,
};

/**
 * A listed merge request as one JSON value PostgreSQL writes of the view's columns (`row`): the
 * driver parses each row with one `JSON.parse`, where ~40 text columns, arrays among them, took
 * a conversion each and left a copy per column for the garbage collector. A scalar subquery, like
 * the nested columns, so PostgreSQL still computes it for the page's rows only.
 */
const rowJson = (columns: Record<string, string>) =>
  `(select row_to_json(view_columns) from (select ${selectList(columns)}) view_columns) as "row"`;

const ROW_JSON: Record<MergeRequestListView, string> = {
  simple: rowJson(SIMPLE_COLUMNS),
  full: rowJson(LISTED_COLUMNS),
};

const ORDER_COLUMNS: Record<MergeRequestOrder['by'], string> = {
  created_at: 'mr.created_at',
  updated_at: 'mr.updated_at',
  title: 'mr.title',
};

/** The order of a list: its column, then the id, both in its direction. */
export function mergeRequestOrder(order: MergeRequestOrder): RawBuilder<unknown> {
  const direction = sql.raw(order.direction === 'asc' ? 'asc' : 'desc');
  return sql`${sql.raw(ORDER_COLUMNS[order.by])} ${direction}, mr.id ${direction}`;
}

/**
 * Merge requests as GitLab's list views show them, read without entities: a page, its capped
 * total and each one's notes count, votes and milestone in one statement. Their users are
 * identity's, asked for once per page.
 */
export class MergeRequestsReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  /** A page of the merge requests `filter` selects, with the columns of `view`. */
  async list<View extends MergeRequestListView>(options: {
    filter: MergeRequestFilter;
    order: MergeRequestOrder;
    window: PageWindow;
    view: View;
    /** Count every one (gRPC callers report a total). */
    exactTotal?: boolean;
  }): Promise<Page<MergeRequestRow<View>>> {
    const where = mergeRequestConditions(options.filter);
    const page = await readPage<{ row: MergeRequestRow<View> }>(this.#db, {
      matching: sql`select 1 from merge_requests mr where ${where}`,
      rows: sql`select ${sql.raw(ROW_JSON[options.view])} from merge_requests mr where ${where} order by ${mergeRequestOrder(options.order)}`,
      window: options.window,
      ...(options.exactTotal ? { exactTotal: true } : {}),
    });
    return mapPage(page, (items) => items.map((item) => item.row));
  }

  /** Every merge request `filter` selects, in order, with its project: lists across projects keep those of projects the caller sees. */
  async projectsOf(options: { filter: MergeRequestFilter; order: MergeRequestOrder }): Promise<Array<{ id: number; projectId: number }>> {
    const { rows } = await sql<{ id: number; projectId: number }>`
      select ${sql.raw(selectList({ id: SIMPLE_COLUMNS.id, projectId: SIMPLE_COLUMNS.projectId }))}
      from merge_requests mr where ${mergeRequestConditions(options.filter)} order by ${mergeRequestOrder(options.order)}`.execute(
      this.#db,
    );
    return rows;
  }

  /**
   * The commit ranges of a project's merge requests: each diff version's base and head (its commits
   * are those between), and the merge and squash commits merging wrote. A commit's merge requests
   * are found among them (GitLab's merge request diff commits).
   */
  async commitRanges(projectId: number): Promise<CommitRange[]> {
    const { rows } = await sql<CommitRange>`
      select ${sql.raw(bigintNumber('mr.id'))} as "mergeRequestId", d.base_commit_sha as "baseCommitSha", d.head_commit_sha as "headCommitSha",
        mr.merge_commit_sha as "mergeCommitSha", mr.squash_commit_sha as "squashCommitSha"
      from merge_requests mr left join merge_request_diffs d on d.merge_request_id = mr.id
      where mr.project_id = ${projectId}`.execute(this.#db);
    return rows;
  }
}

/** `None` / `Any` of an array column are about its length; a value means it contains the value. */
function arrayPresence<Value>(column: string, presence: Presence<Value> | undefined, contains: (value: Value) => RawBuilder<unknown>) {
  if (!presence) return [];
  if (presence.kind === 'none') return [sql`cardinality(${sql.raw(column)}) = 0`];
  if (presence.kind === 'any') return [sql`cardinality(${sql.raw(column)}) > 0`];
  return [contains(presence.value)];
}

const containsId = (column: string) => (id: number) => sql`${sql.raw(column)} @> array[${id}]::bigint[]`;

/** Which merge requests (alias `mr`) a filter selects: every list's and every lookup's one reading of it. */
export function mergeRequestConditions(filter: MergeRequestFilter): RawBuilder<unknown> {
  const all: RawBuilder<unknown>[] = [sql`true`];
  // One project's list reads its (project_id, created_at) index in order and stops at the page: `any` of an array cannot.
  if (filter.projectIds?.length === 1) all.push(sql`mr.project_id = ${filter.projectIds[0]}::bigint`);
  else if (filter.projectIds) all.push(sql`mr.project_id = any(${filter.projectIds}::bigint[])`);
  if (filter.groupId !== undefined) all.push(sql`mr.target_namespace_ids @> array[${filter.groupId}]::bigint[]`);
  if (filter.ids) all.push(sql`mr.id = any(${filter.ids}::bigint[])`);
  if (filter.iids) all.push(sql`mr.iid = any(${filter.iids}::integer[])`);
  if (filter.notIds?.length) all.push(sql`mr.id <> all(${filter.notIds}::bigint[])`);
  if (filter.states) all.push(sql`mr.state = any(${filter.states}::text[])`);
  if (filter.authorId !== undefined) all.push(sql`mr.author_id = ${filter.authorId}`);
  if (filter.notAuthorId !== undefined) all.push(sql`mr.author_id <> ${filter.notAuthorId}`);
  all.push(...arrayPresence('mr.assignee_ids', filter.assignee, containsId('mr.assignee_ids')));
  if (filter.notAssigneeId !== undefined) all.push(sql`not (${containsId('mr.assignee_ids')(filter.notAssigneeId)})`);
  all.push(...arrayPresence('mr.reviewer_ids', filter.reviewer, containsId('mr.reviewer_ids')));
  if (filter.involvedUserId !== undefined) {
    all.push(sql`(${containsId('mr.assignee_ids')(filter.involvedUserId)} or ${containsId('mr.reviewer_ids')(filter.involvedUserId)})`);
  }
  all.push(...arrayPresence('mr.labels', filter.labels, (labels: string[]) => sql`mr.labels @> ${labels}::text[]`));
  if (filter.notLabels?.length) all.push(sql`not (mr.labels && ${filter.notLabels}::text[])`);
  if (filter.milestone?.kind === 'none') all.push(sql`mr.milestone_id is null`);
  if (filter.milestone?.kind === 'any') all.push(sql`mr.milestone_id is not null`);
  if (filter.milestone?.kind === 'is') all.push(sql`mr.milestone_id = any(${filter.milestone.value}::bigint[])`);
  if (filter.notMilestoneIds) all.push(sql`(mr.milestone_id is null or mr.milestone_id <> all(${filter.notMilestoneIds}::bigint[]))`);
  if (filter.sourceBranch !== undefined) all.push(sql`mr.source_branch = ${filter.sourceBranch}`);
  if (filter.targetBranch !== undefined) all.push(sql`mr.target_branch = ${filter.targetBranch}`);
  if (filter.search) {
    const pattern = likePattern(filter.search.text);
    const fields = [
      ...(filter.search.inTitle ? [sql`mr.title ilike ${pattern}`] : []),
      ...(filter.search.inDescription ? [sql`mr.description ilike ${pattern}`] : []),
    ];
    all.push(fields.length > 0 ? sql`(${sql.join(fields, sql` or `)})` : sql`false`);
  }
  if (filter.draft !== undefined) all.push(sql`mr.draft = ${filter.draft}`);
  if (filter.createdAfter) all.push(sql`mr.created_at >= ${filter.createdAfter}`);
  if (filter.createdBefore) all.push(sql`mr.created_at <= ${filter.createdBefore}`);
  if (filter.updatedAfter) all.push(sql`mr.updated_at >= ${filter.updatedAfter}`);
  if (filter.updatedBefore) all.push(sql`mr.updated_at <= ${filter.updatedBefore}`);
  return sql.join(all, sql` and `);
}
