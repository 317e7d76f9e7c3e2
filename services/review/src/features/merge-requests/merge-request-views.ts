import type { MergeMethod } from '@platform/identity-client';
import { labelBasicView } from '../labels/label-views.ts';
import type { ListedLabel } from '../labels/labels-service.ts';
import { embeddedMilestoneView, milestoneParentPages, milestoneView, type EmbeddedMilestone } from '../milestones/milestone-views.ts';
import type { FileDiff, GitCommit } from '../repositories/git-repository.ts';
import { diffView } from '../commits/commit-views.ts';
import { humanDuration, taskCompletionStatus } from '../core/merge-request-text.ts';
import type { MergeRequest, MergeRequestDiff } from './merge-request.entity.ts';
import type { MergeRequestFacts } from './merge-request-facts.ts';
import type { UserSummary } from '../core/user-directory.ts';
import { isoOf, type Timestamp } from '../core/timestamps.ts';

/** The project a merge request belongs to, as its views name it. */
export interface ViewedProject {
  id: number;
  pathWithNamespace: string;
  webUrl: string;
  /** `ff` and `rebase_merge` need sources that contain the target's head. */
  mergeMethod: MergeMethod;
}

export interface ViewContext {
  project: ViewedProject;
  users: Map<number, UserSummary>;
  /** Read from the merge request's own project (`references.relative` is short), or across projects and groups (full). */
  fromOwnProject: boolean;
  /** With `with_labels_details=true`: the labels the project sees, by title, shown as objects. */
  labelDetails?: Map<string, ListedLabel> | undefined;
}

/** What the simple view shows of a merge request: an entity, or a read model's row of these columns. */
export type SimpleMergeRequest = Pick<MergeRequest, 'id' | 'iid' | 'projectId' | 'title' | 'description' | 'state'> & {
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

/** What the list view shows: the merge request's columns, and what other features keep about it (notes, votes, milestone). */
export type ListedMergeRequest = SimpleMergeRequest &
  Pick<
    MergeRequest,
    | 'sourceProjectId'
    | 'sourceBranch'
    | 'targetBranch'
    | 'draft'
    | 'authorId'
    | 'assigneeIds'
    | 'reviewerIds'
    | 'labels'
    | 'squash'
    | 'forceRemoveSourceBranch'
    | 'allowCollaboration'
    | 'discussionLocked'
    | 'approvalsBeforeMerge'
    | 'mergeStatus'
    | 'fastForwardPossible'
    | 'headSha'
    | 'mergeCommitSha'
    | 'squashCommitSha'
    | 'mergedById'
    | 'closedById'
    | 'timeEstimate'
    | 'totalTimeSpent'
  > &
  Pick<MergeRequestFacts, 'userNotesCount' | 'blockingDiscussionsResolved' | 'upvotes' | 'downvotes'> & {
    mergedAt?: Timestamp | null | undefined;
    closedAt?: Timestamp | null | undefined;
    milestone: EmbeddedMilestone | null;
    /** Set to merge when its pipeline succeeds (lists read it; single views ask the automatic merge itself). */
    mergeWhenPipelineSucceeds?: boolean | undefined;
  };

/** A merge request entity with the facts other features keep about it, as the list view shows it. */
export function withFacts(mergeRequest: MergeRequest, facts: MergeRequestFacts): ListedMergeRequest {
  return { ...mergeRequest, ...facts };
}

function userOf(users: Map<number, UserSummary>, id: number | null | undefined): UserSummary | null {
  return id === null || id === undefined ? null : (users.get(id) ?? null);
}

/** Every user a merge request's views show, for one GetUsers call. */
export function userIdsOf(
  mergeRequests: Array<Pick<MergeRequest, 'authorId' | 'assigneeIds' | 'reviewerIds' | 'mergedById' | 'closedById'>>,
): number[] {
  return mergeRequests.flatMap((mergeRequest) => [
    mergeRequest.authorId,
    ...mergeRequest.assigneeIds,
    ...mergeRequest.reviewerIds,
    ...(mergeRequest.mergedById ? [mergeRequest.mergedById] : []),
    ...(mergeRequest.closedById ? [mergeRequest.closedById] : []),
  ]);
}

export function timeStatsView(mergeRequest: Pick<MergeRequest, 'timeEstimate' | 'totalTimeSpent'>) {
  return {
    time_estimate: mergeRequest.timeEstimate,
    total_time_spent: mergeRequest.totalTimeSpent,
    human_time_estimate: humanDuration(mergeRequest.timeEstimate),
    human_total_time_spent: humanDuration(mergeRequest.totalTimeSpent),
  };
}

/** What every view of a merge request starts with: which it is, its text and state. */
export function mergeRequestIdentityView(mergeRequest: SimpleMergeRequest) {
  return {
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    project_id: mergeRequest.projectId,
    title: mergeRequest.title,
    description: mergeRequest.description,
    state: mergeRequest.state,
    created_at: isoOf(mergeRequest.createdAt),
    updated_at: isoOf(mergeRequest.updatedAt),
  };
}

/** Where a merge request is shown, and how it is referred to from its project and from elsewhere. */
function simpleMergeRequestLinks(mergeRequest: SimpleMergeRequest, context: Pick<ViewContext, 'project' | 'fromOwnProject'>) {
  const short = `!${mergeRequest.iid}`;
  const full = `${context.project.pathWithNamespace}!${mergeRequest.iid}`;
  return {
    web_url: `${context.project.webUrl}/-/merge_requests/${mergeRequest.iid}`,
    references: { short, relative: context.fromOwnProject ? short : full, full },
  };
}

/** `view=simple`: GitLab's `merge_request_simple.json`. */
export function simpleMergeRequestView(mergeRequest: SimpleMergeRequest, context: Pick<ViewContext, 'project' | 'fromOwnProject'>) {
  return { ...mergeRequestIdentityView(mergeRequest), ...simpleMergeRequestLinks(mergeRequest, context) };
}

/**
 * A merge request in a list: GitLab's `merge_requests.json` item with the spec's fields. One object
 * literal with the simple view's fields restated, not a spread of it with 45 properties added one by
 * one: a page's twenty views take about two thirds of the time. The fork-only fields are undefined
 * for a project's own merge requests, which JSON leaves out.
 */
export function mergeRequestView(mergeRequest: ListedMergeRequest, context: ViewContext) {
  const assignees = mergeRequest.assigneeIds.map((id) => userOf(context.users, id)).filter((user) => user !== null);
  const reviewers = mergeRequest.reviewerIds.map((id) => userOf(context.users, id)).filter((user) => user !== null);
  const { web_url, references } = simpleMergeRequestLinks(mergeRequest, context);
  const mergedBy = userOf(context.users, mergeRequest.mergedById);
  // GitLab shows these only for merge requests from forks.
  const fromFork = mergeRequest.sourceProjectId !== mergeRequest.projectId;
  return {
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    project_id: mergeRequest.projectId,
    title: mergeRequest.title,
    description: mergeRequest.description,
    state: mergeRequest.state,
    created_at: isoOf(mergeRequest.createdAt),
    updated_at: isoOf(mergeRequest.updatedAt),
    web_url,
    references,
    merged_by: mergedBy,
    merge_user: mergedBy,
    merged_at: mergeRequest.mergedAt ? isoOf(mergeRequest.mergedAt) : null,
    closed_by: userOf(context.users, mergeRequest.closedById),
    closed_at: mergeRequest.closedAt ? isoOf(mergeRequest.closedAt) : null,
    target_branch: mergeRequest.targetBranch,
    source_branch: mergeRequest.sourceBranch,
    user_notes_count: mergeRequest.userNotesCount,
    upvotes: mergeRequest.upvotes,
    downvotes: mergeRequest.downvotes,
    author: userOf(context.users, mergeRequest.authorId),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers,
    source_project_id: mergeRequest.sourceProjectId,
    target_project_id: mergeRequest.projectId,
    labels: labelsView(mergeRequest.labels, context.labelDetails),
    draft: mergeRequest.draft,
    work_in_progress: mergeRequest.draft,
    // Lists embed GitLab's milestone without `expired` and `web_url` (merge_requests.json).
    milestone: mergeRequest.milestone ? embeddedMilestoneView(mergeRequest.milestone) : null,
    merge_when_pipeline_succeeds: mergeRequest.mergeWhenPipelineSucceeds ?? false,
    merge_status: mergeRequest.mergeStatus,
    detailed_merge_status: detailedMergeStatus(mergeRequest, context.project.mergeMethod),
    sha: mergeRequest.headSha ?? '',
    merge_commit_sha: mergeRequest.mergeCommitSha,
    squash_commit_sha: mergeRequest.squashCommitSha,
    discussion_locked: mergeRequest.discussionLocked,
    should_remove_source_branch: mergeRequest.state === 'merged' ? mergeRequest.forceRemoveSourceBranch : null,
    force_remove_source_branch: mergeRequest.forceRemoveSourceBranch,
    allow_collaboration: fromFork ? mergeRequest.allowCollaboration : undefined,
    allow_maintainer_to_push: fromFork ? mergeRequest.allowCollaboration : undefined,
    reference: references.short,
    time_stats: timeStatsView(mergeRequest),
    squash: mergeRequest.squash,
    squash_on_merge: mergeRequest.squash,
    task_completion_status: taskCompletionStatus(mergeRequest.description),
    has_conflicts: mergeRequest.mergeStatus === 'cannot_be_merged',
    blocking_discussions_resolved: mergeRequest.blockingDiscussionsResolved,
    approvals_before_merge: mergeRequest.approvalsBeforeMerge,
  };
}

/** Label titles, or with details GitLab's `LabelBasic` of each label the project still has. */
function labelsView(titles: string[], details: Map<string, ListedLabel> | undefined) {
  if (!details) return titles;
  return titles.flatMap((title) => {
    const label = details.get(title);
    return label ? [labelBasicView(label)] : [];
  });
}

/** GitLab's `detailed_merge_status`, from what this platform knows of a merge request. */
function detailedMergeStatus(
  mergeRequest: Pick<MergeRequest, 'state' | 'draft' | 'mergeStatus' | 'fastForwardPossible'>,
  mergeMethod: MergeMethod,
): string {
  if (mergeRequest.state !== 'opened') return 'not_open';
  if (mergeRequest.draft) return 'draft_status';
  if (mergeRequest.mergeStatus === 'unchecked') return 'checking';
  if (mergeRequest.mergeStatus === 'cannot_be_merged') return 'conflict';
  // GitLab's `should_be_rebased?`: the merge method wants the target's head in the source.
  if (mergeMethod !== 'merge' && !mergeRequest.fastForwardPossible) return 'need_rebase';
  return 'mergeable';
}

/** One merge request (`merge_request.json`): the list view plus the single-item fields. */
export function mergeRequestDetailView(
  mergeRequest: MergeRequest,
  context: ViewContext & {
    /** Its project's groups, top-level first: whose milestone it may carry. */
    project: { namespaceIds: number[] };
    /** What other features keep about it, as the caller sees it. */
    facts: MergeRequestFacts;
    latest: MergeRequestDiff | undefined;
    divergedCommitsCount?: number | undefined;
    /** Whether the approvals it needs are given: a mergeable one without them is `not_approved`. */
    approved: boolean;
  },
) {
  const view = mergeRequestView(withFacts(mergeRequest, context.facts), context);
  const { milestone } = context.facts;
  return {
    ...view,
    milestone: milestone ? milestoneView(milestone, milestoneParentPages(milestone, context.project)) : null,
    detailed_merge_status: view.detailed_merge_status === 'mergeable' && !context.approved ? 'not_approved' : view.detailed_merge_status,
    subscribed: context.facts.subscribed,
    changes_count: context.latest ? String(context.latest.filesCount) : '0',
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: null,
    head_pipeline: null,
    diff_refs: context.latest
      ? { base_sha: context.latest.baseCommitSha, head_sha: context.latest.headCommitSha, start_sha: context.latest.startCommitSha }
      : null,
    merge_error: mergeRequest.mergeError,
    ...(context.divergedCommitsCount === undefined ? {} : { diverged_commits_count: context.divergedCommitsCount }),
  };
}

/** A merge request's diffs are shown as a commit's are (`Entities::Diff`). */
export { diffView };

export function versionView(version: MergeRequestDiff) {
  return {
    id: version.id,
    head_commit_sha: version.headCommitSha,
    base_commit_sha: version.baseCommitSha,
    start_commit_sha: version.startCommitSha,
    created_at: version.createdAt.toISOString(),
    merge_request_id: version.mergeRequestId,
    state: 'collected',
    real_size: String(version.filesCount),
    patch_id_sha: null,
  };
}

export function versionDetailView(version: MergeRequestDiff, contents: { commits: GitCommit[]; diffs: FileDiff[] }) {
  return {
    ...versionView(version),
    commits: contents.commits.map((commit) => ({
      id: commit.id,
      short_id: commit.id.slice(0, 8),
      parent_ids: commit.parentIds,
      title: commit.message.split('\n')[0] ?? '',
      author_name: commit.authorName,
      author_email: commit.authorEmail,
      authored_date: commit.authoredDate,
      committer_name: commit.committerName,
      committer_email: commit.committerEmail,
      committed_date: commit.committedDate,
      created_at: commit.committedDate,
      message: commit.message,
    })),
    diffs: contents.diffs.map(diffView),
  };
}
