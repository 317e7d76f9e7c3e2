import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Delivery's external pipeline as its latest event told it (review keeps what merge requests show and wait for). */
export const HeadPipeline = defineEntity({
  name: 'HeadPipeline',
  tableName: 'pipelines',
  properties: {
    /** Delivery's pipeline id. */
    id: p.bigint('number').primary().autoincrement(false),
    projectId: p.bigint('number'),
    iid: p.integer(),
    sha: p.text(),
    ref: p.text(),
    tag: p.boolean(),
    beforeSha: p.text(),
    source: p.text(),
    status: p.text(),
    userId: p.integer(),
    userUsername: p.text(),
    userName: p.text(),
    coverage: p.text().nullable(),
    webUrl: p.text(),
    duration: p.integer().nullable(),
    /** The event's version: an older event never replaces a newer one. */
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});
export type HeadPipeline = InferEntity<typeof HeadPipeline>;

/** A merge request set to merge when its pipeline succeeds (GitLab's `auto_merge_enabled` with `merge_user` and `merge_params`). */
export const MergeRequestAutoMerge = defineEntity({
  name: 'MergeRequestAutoMerge',
  tableName: 'merge_request_auto_merges',
  properties: {
    mergeRequestId: p.bigint('number').primary().autoincrement(false),
    mergeUserId: p.bigint('number'),
    mergeUserUsername: p.text(),
    mergeUserName: p.text(),
    /** The source branch's head when it was set: a push moving it cancels the merge. */
    sha: p.text(),
    squash: p.boolean().nullable(),
    shouldRemoveSourceBranch: p.boolean().nullable(),
    mergeCommitMessage: p.text().nullable(),
    squashCommitMessage: p.text().nullable(),
    createdAt: p.datetime(),
  },
});
export type MergeRequestAutoMerge = InferEntity<typeof MergeRequestAutoMerge>;
