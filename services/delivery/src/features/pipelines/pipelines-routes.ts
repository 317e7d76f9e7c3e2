import { NotFoundError } from '@platform/errors';
import { baseUrlOf, routesOf } from '@platform/http';
import { requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import { PIPELINE_READERS } from './pipeline-access.ts';
import type { PipelinesReadModel } from './pipelines-read-model.ts';
import { pipelineBasicView, pipelineView } from './pipelines-views.ts';
import { PIPELINE_ORDERS, pipelineListQuery, pipelineParams } from './pipelines.schemas.ts';

export interface PipelinesRouteDeps {
  access: IdentityAccess;
  pipelines: PipelinesReadModel;
}

const route = routesOf<PipelinesRouteDeps>('delivery');

/** GitLab's pipelines API for the external pipelines commit statuses make: listed and read, nothing run. */
export const pipelinesRoutes = [
  route.list({
    path: '/api/v4/projects/:id/pipelines',
    access: 'anonymous',
    scope: 'read_api',
    input: pipelineListQuery,
    order: { by: PIPELINE_ORDERS, default: 'id', sort: 'desc' },
    handle: async ({ caller, input, deps, window, order }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...PIPELINE_READERS });
      const page = await deps.pipelines.list(project.id, {
        filter: {
          scope: input.scope,
          status: input.status,
          ref: input.ref,
          sha: input.sha,
          yamlErrors: input.yaml_errors,
          username: input.username,
          updatedAfter: input.updated_after,
          updatedBefore: input.updated_before,
          source: input.source,
        },
        order,
        window,
      });
      return { ...page, items: page.items.map((pipeline) => pipelineBasicView(pipeline, project)) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/pipelines/:pipeline_id',
    access: 'anonymous',
    scope: 'read_api',
    input: pipelineParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...PIPELINE_READERS });
      const pipeline = await deps.pipelines.get(project.id, input.pipeline_id);
      if (!pipeline) throw new NotFoundError();
      return pipelineView(pipeline, { project, baseUrl: baseUrlOf(request) });
    },
  }),
];
