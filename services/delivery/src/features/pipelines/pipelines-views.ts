import { detailedStatusView } from '@platform/delivery-client';
import type { ProjectAccess } from '@platform/identity-client';
import type { Pipeline } from './pipeline.entity.ts';

/** A pipeline as its views show it: the entity's columns, timestamps as ISO 8601 strings (as the read model selects them). */
export type ListedPipeline = Pick<
  Pipeline,
  | 'id'
  | 'iid'
  | 'projectId'
  | 'sha'
  | 'ref'
  | 'tag'
  | 'beforeSha'
  | 'source'
  | 'status'
  | 'userId'
  | 'userUsername'
  | 'userName'
  | 'coverage'
> & { createdAt: string; updatedAt: string; startedAt: string | null; finishedAt: string | null };

/** Where a pipeline's views point: the project's web address and path. */
export type PipelineProject = Pick<ProjectAccess, 'webUrl' | 'pathWithNamespace'>;

/** A written pipeline as its views read it. */
export function listedPipeline(pipeline: Pipeline): ListedPipeline {
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    projectId: pipeline.projectId,
    sha: pipeline.sha,
    ref: pipeline.ref,
    tag: pipeline.tag,
    beforeSha: pipeline.beforeSha,
    source: pipeline.source,
    status: pipeline.status,
    userId: pipeline.userId,
    userUsername: pipeline.userUsername,
    userName: pipeline.userName,
    coverage: pipeline.coverage,
    createdAt: pipeline.createdAt.toISOString(),
    updatedAt: pipeline.updatedAt.toISOString(),
    startedAt: pipeline.startedAt?.toISOString() ?? null,
    finishedAt: pipeline.finishedAt?.toISOString() ?? null,
  };
}

/** Whole seconds from start to finish, as GitLab's `duration`; null until it finished. */
export function durationOf(pipeline: Pick<ListedPipeline, 'startedAt' | 'finishedAt'>): number | null {
  if (!pipeline.startedAt || !pipeline.finishedAt) return null;
  return Math.max(0, Math.round((Date.parse(pipeline.finishedAt) - Date.parse(pipeline.startedAt)) / 1000));
}

export function pipelineWebUrl(project: PipelineProject, pipelineId: number): string {
  return `${project.webUrl}/-/pipelines/${pipelineId}`;
}

/** GitLab's `PipelineBasic`, as lists show pipelines. */
export function pipelineBasicView(pipeline: ListedPipeline, project: PipelineProject) {
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
    web_url: pipelineWebUrl(project, pipeline.id),
  };
}

/** GitLab's `Pipeline` (detail): who started it, when it ran, its coverage and detailed status. */
export function pipelineView(pipeline: ListedPipeline, options: { project: PipelineProject; baseUrl: string }) {
  const { project } = options;
  return {
    ...pipelineBasicView(pipeline, project),
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
    started_at: pipeline.startedAt,
    finished_at: pipeline.finishedAt,
    committed_at: null,
    duration: durationOf(pipeline),
    queued_duration: null,
    coverage: pipeline.coverage,
    detailed_status: detailedStatusView(pipeline.status, `/${project.pathWithNamespace}/-/pipelines/${pipeline.id}`),
    archived: false,
  };
}
