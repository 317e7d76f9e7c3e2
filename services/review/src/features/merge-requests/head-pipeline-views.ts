import { detailedStatusView } from '@platform/delivery-client';
import type { HeadPipeline } from './auto-merge.entity.ts';

/** A pipeline as lists show it: what `PipelineBasic` reads, timestamps as ISO 8601 strings (as read models select them). */
export type ListedPipeline = Pick<HeadPipeline, 'id' | 'iid' | 'projectId' | 'sha' | 'ref' | 'status' | 'source' | 'webUrl'> & {
  createdAt: string;
  updatedAt: string;
};

/** GitLab's `PipelineBasic`: a merge request's pipelines as they are listed. */
export function pipelineBasicView(pipeline: ListedPipeline) {
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    project_id: pipeline.projectId,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    source: pipeline.source,
    created_at: pipeline.createdAt,
    updated_at: pipeline.updatedAt,
    web_url: pipeline.webUrl,
  };
}

/** GitLab's `PipelineBasic` of a merge request's head pipeline: its (deprecated) `pipeline`. */
export function headPipelineBasicView(pipeline: HeadPipeline) {
  return pipelineBasicView({ ...pipeline, createdAt: pipeline.createdAt.toISOString(), updatedAt: pipeline.updatedAt.toISOString() });
}

/** GitLab's `Pipeline` detail: a merge request's `head_pipeline`. */
export function headPipelineView(pipeline: HeadPipeline, options: { baseUrl: string }) {
  return {
    ...headPipelineBasicView(pipeline),
    before_sha: pipeline.beforeSha,
    tag: pipeline.tag,
    yaml_errors: null,
    user: {
      id: pipeline.userId,
      username: pipeline.userUsername,
      name: pipeline.userName,
      state: 'active',
      locked: false,
      avatar_url: null,
      web_url: `${options.baseUrl}/${pipeline.userUsername}`,
    },
    started_at: pipeline.startedAt?.toISOString() ?? null,
    finished_at: pipeline.finishedAt?.toISOString() ?? null,
    committed_at: null,
    duration: pipeline.duration,
    queued_duration: null,
    coverage: pipeline.coverage,
    detailed_status: detailedStatusView(pipeline.status, new URL(pipeline.webUrl).pathname),
  };
}
