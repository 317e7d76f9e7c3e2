import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import { routesOf } from '@platform/http';
import { ACCESS_LEVEL, hasProjectAccess, type IdentityAccess, type ProjectAccess } from '@platform/identity-client';
import { pipelineBasicView } from './head-pipeline-views.ts';
import type { MergeRequestPipelinesReadModel } from './merge-request-pipelines-read-model.ts';
import { perMergeRequest, readableProject } from './merge-request-route-support.ts';

export interface MergeRequestPipelinesRouteDeps {
  access: IdentityAccess;
  pipelines: MergeRequestPipelinesReadModel;
}

const route = routesOf<MergeRequestPipelinesRouteDeps>('review');

/** GitLab's `read_pipeline`: whoever sees a public or internal project, reporters and above a private one. */
const PIPELINE_READERS = { minimumLevel: ACCESS_LEVEL.NO_ACCESS, privateMinimumLevel: ACCESS_LEVEL.REPORTER };

/** Whether the caller may read the pipelines of the merge request's source project (a fork's too); false when it is gone or unseen. */
async function mayReadSourcePipelines(options: {
  access: IdentityAccess;
  caller: Caller;
  project: ProjectAccess;
  sourceProjectId: number;
}): Promise<boolean> {
  const { access, caller, project, sourceProjectId } = options;
  const source =
    sourceProjectId === project.id
      ? project
      : await access.project({ idOrPath: String(sourceProjectId), caller }).catch((error: unknown) => {
          if (error instanceof NotFoundError) return null;
          throw error;
        });
  return source !== null && hasProjectAccess(source, PIPELINE_READERS);
}

/** A merge request's pipelines: those of its source branch at the heads it had, as GitLab lists them. */
export const mergeRequestPipelinesRoutes = [
  route.list({
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/pipelines',
    access: 'user',
    scope: 'read_api',
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps, window }) => {
      const project = await readableProject(deps, caller, input.id);
      const mergeRequest = await deps.pipelines.source(project.id, input.merge_request_iid);
      if (!mergeRequest) throw new NotFoundError('Merge Request');
      // GitLab's finder answers none to a caller who may not read the source project's pipelines.
      if (!(await mayReadSourcePipelines({ ...deps, caller, project, sourceProjectId: mergeRequest.sourceProjectId }))) {
        return { items: [], total: 0 };
      }
      const page = await deps.pipelines.list(mergeRequest, window);
      return { ...page, items: page.items.map(pipelineBasicView) };
    },
  }),
];
