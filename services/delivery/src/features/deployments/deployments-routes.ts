import { baseUrlOf, pageParams, routesOf } from '@platform/http';
import { requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import { DEPLOYMENT_READERS, DEPLOYMENT_WRITERS } from './deployment-access.ts';
import type { DeploymentsService } from './deployments-service.ts';
import { deploymentView } from './deployments-views.ts';
import {
  createDeploymentBody,
  DEPLOYMENT_ORDERS,
  deploymentMergeRequestsListShape,
  deploymentMergeRequestsQuery,
  deploymentListQuery,
  deploymentParams,
  updateDeploymentBody,
} from './deployments.schemas.ts';

export interface DeploymentsRouteDeps {
  access: IdentityAccess;
  deployments: DeploymentsService;
}

const route = routesOf<DeploymentsRouteDeps>('delivery');

/** GitLab's deployments API: reporters read, developers record deployments and set their status. */
export const deploymentsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/deployments',
    access: 'anonymous',
    scope: 'read_api',
    input: deploymentListQuery,
    order: { by: DEPLOYMENT_ORDERS, default: 'id', sort: 'asc' },
    handle: async ({ caller, input, deps, window, order, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_READERS });
      const page = await deps.deployments.list(project, {
        filter: {
          updatedAfter: input.updated_after,
          updatedBefore: input.updated_before,
          environmentName: input.environment,
          status: input.status,
        },
        order,
        window,
      });
      const baseUrl = baseUrlOf(request);
      return { ...page, items: page.items.map((placed) => deploymentView(placed, { baseUrl })) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/deployments/:deployment_id',
    access: 'anonymous',
    scope: 'read_api',
    input: deploymentParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_READERS });
      return deploymentView(await deps.deployments.get(project, input.deployment_id), { baseUrl: baseUrlOf(request) });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/deployments/:deployment_id/merge_requests',
    access: 'user',
    scope: 'read_api',
    input: deploymentMergeRequestsQuery,
    handle: async ({ caller, input, deps, request, page }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_READERS });
      // Validated here, applied by review: the list parameters go as the caller wrote them.
      const parameters = Object.fromEntries(
        Object.keys(deploymentMergeRequestsListShape).flatMap((name) => {
          const value = request.query[name];
          return typeof value === 'string' ? [[name, value]] : [];
        }),
      );
      return page(pageParams(input), await deps.deployments.mergeRequests(project, input.deployment_id, { caller, parameters }));
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/deployments',
    access: 'user',
    scope: 'api',
    status: 201,
    input: createDeploymentBody,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_WRITERS });
      const placed = await deps.deployments.create(project, {
        environment: input.environment,
        ref: input.ref,
        sha: input.sha,
        tag: input.tag,
        status: input.status,
        caller,
      });
      return deploymentView(placed, { baseUrl: baseUrlOf(request) });
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/deployments/:deployment_id',
    access: 'user',
    scope: 'api',
    input: updateDeploymentBody,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_WRITERS });
      const placed = await deps.deployments.updateStatus(project, input.deployment_id, { status: input.status, caller });
      return deploymentView(placed, { baseUrl: baseUrlOf(request) });
    },
  }),
];
