import type { EntityManager } from '@platform/db';
import { MergeRequest } from '../merge-requests/merge-request.entity.ts';

/** GitLab's `merge_requests_closing_issues`: which issues each merge request closes on merge. */
export class PgMergeRequestClosingIssuesStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** Makes `issueIds` the issues the merge request closes, in the caller's transaction. */
  async replace(mergeRequestId: number, issueIds: number[]): Promise<void> {
    await this.#em.execute('delete from merge_requests_closing_issues where merge_request_id = ?', [mergeRequestId]);
    if (issueIds.length === 0) return;
    await this.#em.execute(
      `insert into merge_requests_closing_issues (merge_request_id, issue_id, created_at)
        select ?, unnest(?::bigint[]), now() on conflict do nothing`,
      [mergeRequestId, `{${issueIds.join(',')}}`],
    );
  }

  /** The ids of the issues the merge request closes. */
  async issueIds(mergeRequestId: number): Promise<number[]> {
    const rows = await this.#em.execute<Array<{ issue_id: string }>>(
      'select issue_id from merge_requests_closing_issues where merge_request_id = ? order by issue_id',
      [mergeRequestId],
    );
    return rows.map((row) => Number(row.issue_id));
  }

  /** The iids of the project's merge requests that close the issue (its entries, by the issue_id index). */
  async mergeRequestIids(options: { projectId: number; issueId: number }): Promise<number[]> {
    const rows = await this.#em.execute<Array<{ iid: number }>>(
      `select mr.iid from merge_requests_closing_issues c join merge_requests mr on mr.id = c.merge_request_id
        where c.issue_id = ? and mr.project_id = ?`,
      [options.issueId, options.projectId],
    );
    return rows.map((row) => row.iid);
  }

  /** Merge requests of any state in id order, `limit` after `afterId`: what the backfill reads. */
  mergeRequestsAfter(afterId: number, limit: number): Promise<MergeRequest[]> {
    return this.#em.find(MergeRequest, { id: { $gt: afterId } }, { orderBy: { id: 'asc' }, limit });
  }
}
