import { Migration } from '@platform/db';

/**
 * What the backfill in SQL could not see (the default branch, commit messages, project paths and
 * addresses, other projects' issues and who may read them) is read by a job the service runs once
 * it starts: the same reading as a merge request's changes, merge request by merge request.
 */
export class Migration20261127040100_merge_requests_closing_issues_backfill extends Migration {
  override name = 'Migration20261127040100_merge_requests_closing_issues_backfill';

  override up(): void {
    this.addSql(`insert into background_jobs (kind, payload, max_attempts, created_at)
      values ('review.merge_requests_closing_issues_backfill', '{"afterId": 0}'::jsonb, 5, now())`);
  }
}
