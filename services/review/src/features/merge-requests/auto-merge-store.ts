import type { EntityManager } from '@platform/db';
import { MergeRequest } from './merge-request.entity.ts';
import { HeadPipeline, MergeRequestAutoMerge } from './auto-merge.entity.ts';

/** What a merge request's views show of its pipeline and its automatic merge. */
export interface PipelineState {
  headPipeline: HeadPipeline | null;
  autoMerge: MergeRequestAutoMerge | null;
}

export type NewAutoMerge = Omit<MergeRequestAutoMerge, 'createdAt'>;

/** An open merge request set to merge when its pipeline succeeds, as a pipeline's change finds it. */
export interface ArmedMergeRequest {
  mergeRequestId: number;
  projectId: number;
  iid: number;
  headSha: string | null;
  armedSha: string;
}

/** Delivery's pipelines as review keeps them, and the merge requests waiting for them; in the unit of work the service opened. */
export class PgAutoMergeStore {
  readonly #em: EntityManager;

  constructor(em: EntityManager) {
    this.#em = em;
  }

  /** Keeps the pipeline as told, unless a newer version of it is kept already: false then. */
  async recordPipeline(pipeline: HeadPipeline): Promise<boolean> {
    const columns = [
      'id',
      'project_id',
      'iid',
      'sha',
      'ref',
      'tag',
      'before_sha',
      'source',
      'status',
      'user_id',
      'user_username',
      'user_name',
      'coverage',
      'web_url',
      'duration',
      'version',
      'created_at',
      'updated_at',
      'started_at',
      'finished_at',
    ];
    const values = [
      pipeline.id,
      pipeline.projectId,
      pipeline.iid,
      pipeline.sha,
      pipeline.ref,
      pipeline.tag,
      pipeline.beforeSha,
      pipeline.source,
      pipeline.status,
      pipeline.userId,
      pipeline.userUsername,
      pipeline.userName,
      pipeline.coverage,
      pipeline.webUrl,
      pipeline.duration,
      pipeline.version,
      pipeline.createdAt,
      pipeline.updatedAt,
      pipeline.startedAt,
      pipeline.finishedAt,
    ];
    const updates = columns
      .filter((column) => column !== 'id')
      .map((column) => `${column} = excluded.${column}`)
      .join(', ');
    const applied = await this.#em.execute<Array<{ id: string }>>(
      `insert into pipelines (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})
       on conflict (id) do update set ${updates} where pipelines.version < excluded.version returning id`,
      values,
    );
    return applied.length > 0;
  }

  /** The newest pipeline of the merge request's source branch at its head commit (GitLab's `diff_head_pipeline`). */
  headPipeline(mergeRequest: Pick<MergeRequest, 'sourceProjectId' | 'sourceBranch' | 'headSha'>): Promise<HeadPipeline | null> {
    if (!mergeRequest.headSha) return Promise.resolve(null);
    return this.#em.findOne(
      HeadPipeline,
      { projectId: mergeRequest.sourceProjectId, ref: mergeRequest.sourceBranch, sha: mergeRequest.headSha },
      { orderBy: { id: 'desc' } },
    );
  }

  /** What a merge request's single view shows of its head pipeline and its automatic merge. */
  async state(mergeRequest: MergeRequest): Promise<PipelineState> {
    const [headPipeline, autoMerge] = await Promise.all([this.headPipeline(mergeRequest), this.autoMergeOf(mergeRequest.id)]);
    return { headPipeline, autoMerge };
  }

  mergeRequest(id: number): Promise<MergeRequest | null> {
    return this.#em.findOne(MergeRequest, { id });
  }

  autoMergeOf(mergeRequestId: number): Promise<MergeRequestAutoMerge | null> {
    return this.#em.findOne(MergeRequestAutoMerge, { mergeRequestId });
  }

  /** The merge requests (by id) of these that are set to merge when their pipeline succeeds. */
  async armedAmong(mergeRequestIds: number[]): Promise<Set<number>> {
    if (mergeRequestIds.length === 0) return new Set();
    const rows = await this.#em.find(MergeRequestAutoMerge, { mergeRequestId: { $in: mergeRequestIds } }, { fields: ['mergeRequestId'] });
    return new Set(rows.map((row) => row.mergeRequestId));
  }

  /** Sets (or sets again) the merge request to merge when its pipeline succeeds; false when it was set already. */
  async arm(autoMerge: NewAutoMerge): Promise<boolean> {
    const existing = await this.autoMergeOf(autoMerge.mergeRequestId);
    if (existing) this.#em.assign(existing, { ...autoMerge, createdAt: new Date() });
    else this.#em.create(MergeRequestAutoMerge, { ...autoMerge, createdAt: new Date() });
    await this.#em.flush();
    return existing === null;
  }

  /** Cancels the merge when the pipeline succeeds: the user who had set it; null when it was not set. */
  async disarm(mergeRequestId: number): Promise<{ id: number; username: string; name: string } | null> {
    const [removed] = await this.#em.execute<Array<{ merge_user_id: string; merge_user_username: string; merge_user_name: string }>>(
      `delete from merge_request_auto_merges where merge_request_id = ? returning merge_user_id, merge_user_username, merge_user_name`,
      [mergeRequestId],
    );
    return removed ? { id: Number(removed.merge_user_id), username: removed.merge_user_username, name: removed.merge_user_name } : null;
  }

  /** The open merge requests from this project's branch (any branch of `branches`) set to merge when their pipeline succeeds. */
  async armedBySource(sourceProjectId: number, branches: string[]): Promise<Array<ArmedMergeRequest & { sourceBranch: string }>> {
    if (branches.length === 0) return [];
    const rows = await this.#em.execute<
      Array<{
        id: string;
        project_id: string;
        iid: number;
        head_sha: string | null;
        sha: string;
        source_branch: string;
      }>
    >(
      `select m.id, m.project_id, m.iid, m.head_sha, a.sha, m.source_branch
       from merge_request_auto_merges a join merge_requests m on m.id = a.merge_request_id
       where m.source_project_id = ? and m.source_branch in (${branches.map(() => '?').join(', ')}) and m.state = 'opened'
       order by m.id`,
      [sourceProjectId, ...branches],
    );
    return rows.map((row) => ({
      mergeRequestId: Number(row.id),
      projectId: Number(row.project_id),
      iid: row.iid,
      headSha: row.head_sha,
      armedSha: row.sha,
      sourceBranch: row.source_branch,
    }));
  }
}
