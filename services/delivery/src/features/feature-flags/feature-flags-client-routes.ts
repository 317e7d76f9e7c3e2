import { baseUrlOf, idOrPathParams, routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import type { FeatureFlagsClientService } from './feature-flags-client-service.ts';

export interface FeatureFlagsClientRouteDeps {
  access: IdentityAccess;
  clients: FeatureFlagsClientService;
}

const route = routesOf<FeatureFlagsClientRouteDeps>('delivery');

/** What GitLab's Unleash page shows: the instance id and the URL an SDK is pointed at. */
const clientView = (options: { token: string; baseUrl: string; projectId: number }) => ({
  instance_id: options.token,
  url: `${options.baseUrl}/api/v4/feature_flags/unleash/${options.projectId}`,
});

/** The project's Unleash instance id, for maintainers and above. */
export const featureFlagsClientRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/feature_flags_client',
    access: 'user',
    scope: 'read_api',
    input: idOrPathParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.MAINTAINER });
      return clientView({ token: await deps.clients.tokenOf(project), baseUrl: baseUrlOf(request), projectId: project.id });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/feature_flags_client/reset_token',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    handle: async ({ caller, input, deps, request }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.MAINTAINER });
      const token = await deps.clients.reset(project, caller);
      return clientView({ token, baseUrl: baseUrlOf(request), projectId: project.id });
    },
  }),
];
