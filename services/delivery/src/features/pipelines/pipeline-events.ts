import type { ProjectAccess } from '@platform/identity-client';
import type { PipelineChanged } from '@platform/proto/delivery/v1/events';
import type { CiStatus, Pipeline } from './pipeline.entity.ts';
import { durationOf, listedPipeline, pipelineWebUrl } from './pipelines-views.ts';

/** What `delivery.pipeline.created` and `delivery.pipeline.updated` tell: the pipeline as it is now. */
export function pipelineEventData(
  project: ProjectAccess,
  pipeline: Pipeline,
  options: { previousStatus: CiStatus | null },
): PipelineChanged {
  const listed = listedPipeline(pipeline);
  const duration = durationOf(listed);
  return {
    projectId: project.id,
    projectPath: project.pathWithNamespace,
    pipelineId: pipeline.id,
    iid: pipeline.iid,
    sha: pipeline.sha,
    ref: pipeline.ref,
    tag: pipeline.tag,
    beforeSha: pipeline.beforeSha,
    source: pipeline.source,
    status: pipeline.status,
    previousStatus: options.previousStatus ?? '',
    userId: pipeline.userId,
    userUsername: pipeline.userUsername,
    userName: pipeline.userName,
    coverage: pipeline.coverage ?? '',
    createdAt: listed.createdAt,
    updatedAt: listed.updatedAt,
    startedAt: listed.startedAt ?? '',
    finishedAt: listed.finishedAt ?? '',
    ...(duration === null ? {} : { duration }),
    webUrl: pipelineWebUrl(project, pipeline.id),
    version: pipeline.version,
  };
}
