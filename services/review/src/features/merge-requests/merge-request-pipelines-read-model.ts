import { sql, type Kysely } from 'kysely';
import { bigintNumber, isoTimestamp, readPage, selectList, type Page, type PageWindow } from '@platform/db';
import type { ListedPipeline } from './head-pipeline-views.ts';

/** GitLab's `COMMITS_LIMIT`: the pipelines of the source branch at the heads of this many newest diff versions. */
const RECENT_DIFF_HEADS = 100;

const COLUMNS: Record<keyof ListedPipeline, string> = {
  id: bigintNumber('p.id'),
  iid: 'p.iid',
  projectId: bigintNumber('p.project_id'),
  sha: 'p.sha',
  ref: 'p.ref',
  status: 'p.status',
  source: 'p.source',
  webUrl: 'p.web_url',
  createdAt: isoTimestamp('p.created_at'),
  updatedAt: isoTimestamp('p.updated_at'),
};

/** Where a merge request's pipelines run: its source project and branch. */
export interface MergeRequestSource {
  id: number;
  sourceProjectId: number;
  sourceBranch: string;
}

/** A merge request's pipelines (GitLab's `Ci::PipelinesForMergeRequestFinder`), read without entities. */
export class MergeRequestPipelinesReadModel {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  /** The merge request `iid` of the project, null when it has none. */
  async source(projectId: number, iid: number): Promise<MergeRequestSource | null> {
    const { rows } = await sql<MergeRequestSource>`select ${sql.raw(bigintNumber('mr.id'))} as "id",
        ${sql.raw(bigintNumber('mr.source_project_id'))} as "sourceProjectId", mr.source_branch as "sourceBranch"
      from merge_requests mr where mr.project_id = ${projectId} and mr.iid = ${iid}`.execute(this.#db);
    return rows[0] ?? null;
  }

  /** The source branch's pipelines at the head of one of its recent diff versions, newest first. */
  list(mergeRequest: MergeRequestSource, window: PageWindow): Promise<Page<ListedPipeline>> {
    const where = sql`p.project_id = ${mergeRequest.sourceProjectId} and p.ref = ${mergeRequest.sourceBranch}
      and p.sha in (select d.head_commit_sha from merge_request_diffs d where d.merge_request_id = ${mergeRequest.id}
        order by d.id desc limit ${RECENT_DIFF_HEADS})`;
    return readPage<ListedPipeline>(this.#db, {
      matching: sql`select 1 from pipelines p where ${where}`,
      rows: sql`select ${sql.raw(selectList(COLUMNS))} from pipelines p where ${where} order by p.id desc`,
      window,
    });
  }
}
