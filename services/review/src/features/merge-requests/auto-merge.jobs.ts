import { defineJob } from '@platform/service';

/** Merges a merge request set to merge when its pipeline succeeds, once that pipeline succeeded (nothing when it no longer waits). */
export const autoMergeJob = defineJob<{ mergeRequestId: number; pipelineId: number }>('review.auto_merge');
