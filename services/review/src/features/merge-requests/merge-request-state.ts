/**
 * A merge request's states and the moves between them (GitLab's state machine): `opened` closes and
 * merges, `closed` reopens; `merged` is final. Each move answers whether it happened, and the
 * events a save writes are built from the merge request as it is after it.
 */
import { MethodNotAllowedError } from '@platform/errors';
import type { MergeRequest } from './merge-request.entity.ts';

/** The event payload of a merge request as it is now. */
export function mergeRequestEventData(mergeRequest: MergeRequest) {
  return {
    aggregateId: mergeRequest.projectId,
    data: {
      projectId: mergeRequest.projectId,
      mergeRequestId: mergeRequest.id,
      iid: mergeRequest.iid,
      title: mergeRequest.title,
      state: mergeRequest.state,
      sourceBranch: mergeRequest.sourceBranch,
      targetBranch: mergeRequest.targetBranch,
      authorId: mergeRequest.authorId,
      mergeCommitSha: mergeRequest.mergeCommitSha ?? '',
      description: mergeRequest.description,
      sourceProjectId: mergeRequest.sourceProjectId,
      createdAt: mergeRequest.createdAt.toISOString(),
      updatedAt: mergeRequest.updatedAt.toISOString(),
      assigneeIds: mergeRequest.assigneeIds,
      reviewerIds: mergeRequest.reviewerIds,
      milestoneId: mergeRequest.milestoneId ?? 0,
      mergeStatus: mergeRequest.mergeStatus,
      timeEstimate: mergeRequest.timeEstimate,
      totalTimeSpent: mergeRequest.totalTimeSpent,
      labels: mergeRequest.labels,
      ...(mergeRequest.headSha ? { lastCommitId: mergeRequest.headSha } : {}),
    },
  };
}

/** Closes an open merge request (by `closedById`, null for nobody in particular); false, changing nothing, in any other state. */
export function close(mergeRequest: MergeRequest, options: { closedById: number | null; at: Date }): boolean {
  if (mergeRequest.state !== 'opened') return false;
  Object.assign(mergeRequest, { state: 'closed', closedAt: options.at, closedById: options.closedById, updatedAt: options.at });
  return true;
}

/** Reopens a closed merge request, whose merge status is then unknown; false, changing nothing, in any other state. */
export function reopen(mergeRequest: MergeRequest, options: { at: Date }): boolean {
  if (mergeRequest.state !== 'closed') return false;
  Object.assign(mergeRequest, { state: 'opened', closedAt: null, closedById: null, mergeStatus: 'unchecked', updatedAt: options.at });
  return true;
}

/** Why merging is refused before anything is tried (GitLab's `mergeable_state?`): only an open merge request that is no draft merges. */
export function mergeRefusal(mergeRequest: MergeRequest): MethodNotAllowedError | null {
  if (mergeRequest.state !== 'opened' || mergeRequest.draft) return new MethodNotAllowedError();
  return null;
}

/** Records the merge of `mergeRequest` by `mergedById`: merged is final. */
export function markMerged(
  mergeRequest: MergeRequest,
  options: { mergedById: number; at: Date; headSha: string; mergeCommitSha: string | null },
): void {
  Object.assign(mergeRequest, {
    state: 'merged',
    mergeStatus: 'can_be_merged',
    mergeCommitSha: options.mergeCommitSha,
    mergedById: options.mergedById,
    mergedAt: options.at,
    updatedAt: options.at,
    headSha: options.headSha,
  });
}
