import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A request to merge a source branch into a target branch, numbered `iid` within its (target) project. */
export const MergeRequest = defineEntity({
  name: 'MergeRequest',
  tableName: 'merge_requests',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    iid: p.integer(),
    sourceProjectId: p.bigint('number'),
    /** The target project's namespace and its ancestors, for group lists (as when the merge request was created). */
    targetNamespaceIds: p.array(Number, String).columnType('bigint[]'),
    sourceBranch: p.text(),
    targetBranch: p.text(),
    title: p.text(),
    /** The title marks it a draft (`Draft:`, `[WIP]`...): kept with the title, for the `wip` filter. */
    draft: p.boolean(),
    description: p.text(),
    /** opened, closed, locked or merged. */
    state: p.text(),
    authorId: p.bigint('number'),
    assigneeIds: p.array(Number, String).columnType('bigint[]'),
    reviewerIds: p.array(Number, String).columnType('bigint[]'),
    labels: p.array().columnType('text[]'),
    milestoneId: p.bigint('number').nullable(),
    squash: p.boolean(),
    forceRemoveSourceBranch: p.boolean(),
    allowCollaboration: p.boolean(),
    discussionLocked: p.boolean().nullable(),
    /** GitLab's deprecated approvals this merge request needs when no approval rule applies; null: the project's. */
    approvalsBeforeMerge: p.integer().nullable(),
    /** can_be_merged, cannot_be_merged or unchecked (the target or source moved since the last trial merge). */
    mergeStatus: p.text(),
    /** The source contains the target's head (GitLab's `ff_merge_possible?`), as of the last trial merge. */
    fastForwardPossible: p.boolean(),
    /** When the running rebase of the source branch began; null when none runs. */
    rebaseStartedAt: p.datetime().nullable(),
    /** Why the last rebase failed (GitLab's `merge_error`); null after a successful one. */
    mergeError: p.text().nullable(),
    /** The source branch's head when last seen. */
    headSha: p.text().nullable(),
    mergeCommitSha: p.text().nullable(),
    squashCommitSha: p.text().nullable(),
    mergedById: p.bigint('number').nullable(),
    mergedAt: p.datetime().nullable(),
    closedById: p.bigint('number').nullable(),
    closedAt: p.datetime().nullable(),
    timeEstimate: p.integer(),
    totalTimeSpent: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type MergeRequest = InferEntity<typeof MergeRequest>;

/** A diff version: the source head and where it was compared from, recorded at creation and on each push to the source branch. */
export const MergeRequestDiff = defineEntity({
  name: 'MergeRequestDiff',
  tableName: 'merge_request_diffs',
  properties: {
    id: p.bigint('number').primary(),
    mergeRequestId: p.bigint('number'),
    baseCommitSha: p.text(),
    startCommitSha: p.text(),
    headCommitSha: p.text(),
    filesCount: p.integer(),
    createdAt: p.datetime(),
  },
});
export type MergeRequestDiff = InferEntity<typeof MergeRequestDiff>;
