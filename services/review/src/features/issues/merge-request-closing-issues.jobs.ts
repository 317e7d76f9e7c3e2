import { defineJob } from '@platform/service';

/** Reads the closing references of the merge requests after `afterId` again, a batch at a time, each batch enqueuing the next. */
export const closingIssuesBackfillJob = defineJob<{ afterId: number }>('review.merge_requests_closing_issues_backfill');
