import { baseUrlOf, routesOf } from '@platform/http';
import { requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import { DEPLOYMENT_READERS, DEPLOYMENT_WRITERS } from './deployment-access.ts';
import type { EnvironmentsService } from './environments-service.ts';
import { deploymentView, environmentView } from './deployments-views.ts';
import {
  createEnvironmentBody,
  environmentListQuery,
  environmentParams,
  stopEnvironmentBody,
  updateEnvironmentBody,
} from './deployments.schemas.ts';

export interface EnvironmentsRouteDeps {
  access: IdentityAccess;
  environments: EnvironmentsService;
}

const route = routesOf<EnvironmentsRouteDeps>('delivery');

/** GitLab's environments API: reporters read, developers create, change, stop and delete. */
export const environmentsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/environments',
    access: 'anonymous',
    scope: 'read_api',
    input: environmentListQuery,
    handle: async ({ caller, input, deps, window }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_READERS });
      const page = await deps.environments.list(
        project,
        { name: input.name, search: input.search, ...(input.states ? { states: [input.states] } : {}) },
        window,
      );
      return { ...page, items: page.items.map(environmentView) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/environments/:environment_id',
    access: 'anonymous',
    scope: 'read_api',
    input: environmentParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_READERS });
      const { environment, lastDeployment } = await deps.environments.get(project, input.environment_id);
      return {
        ...environmentView(environment),
        last_deployment: lastDeployment && deploymentView({ deployment: lastDeployment, environment }, { baseUrl: baseUrlOf(request) }),
      };
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/environments',
    access: 'user',
    scope: 'api',
    status: 201,
    input: createEnvironmentBody,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_WRITERS });
      const environment = await deps.environments.create(project, {
        name: input.name,
        externalUrl: input.external_url,
        tier: input.tier,
        caller,
      });
      return environmentView(environment);
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/environments/:environment_id',
    access: 'user',
    scope: 'api',
    input: updateEnvironmentBody,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_WRITERS });
      const environment = await deps.environments.update(project, input.environment_id, {
        externalUrl: input.external_url,
        tier: input.tier,
        caller,
      });
      return environmentView(environment);
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/environments/:environment_id/stop',
    access: 'user',
    scope: 'api',
    input: stopEnvironmentBody,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_WRITERS });
      return environmentView(await deps.environments.stop(project, input.environment_id, caller));
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/environments/:environment_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: environmentParams,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, ...DEPLOYMENT_WRITERS });
      await deps.environments.delete(project, input.environment_id, caller);
    },
  }),
];
