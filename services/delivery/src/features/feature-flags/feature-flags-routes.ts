import { routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import type { FeatureFlagsService } from './feature-flags-service.ts';
import { featureFlagView } from './feature-flags-views.ts';
import { createFeatureFlagBody, featureFlagListQuery, featureFlagParams, updateFeatureFlagBody } from './feature-flags.schemas.ts';

export interface FeatureFlagsRouteDeps {
  access: IdentityAccess;
  featureFlags: FeatureFlagsService;
}

const route = routesOf<FeatureFlagsRouteDeps>('delivery');

/** GitLab's feature flags API, for developers and above. */
export const featureFlagsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/feature_flags',
    access: 'user',
    scope: 'read_api',
    input: featureFlagListQuery,
    handle: async ({ caller, input, deps, window }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      const page = await deps.featureFlags.list(project, { scope: input.scope, window });
      return { ...page, items: page.items.map(featureFlagView) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/feature_flags/:feature_flag_name',
    access: 'user',
    scope: 'read_api',
    input: featureFlagParams,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      return featureFlagView(await deps.featureFlags.get(project, input.feature_flag_name));
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/feature_flags',
    access: 'user',
    scope: 'api',
    status: 201,
    input: createFeatureFlagBody,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      const created = await deps.featureFlags.create(project, {
        name: input.name,
        version: input.version,
        description: input.description,
        active: input.active,
        strategies: input.strategies,
        caller,
      });
      return featureFlagView(created);
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/feature_flags/:feature_flag_name',
    access: 'user',
    scope: 'api',
    input: updateFeatureFlagBody,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      const updated = await deps.featureFlags.update(project, input.feature_flag_name, {
        name: input.name,
        description: input.description,
        active: input.active,
        strategies: input.strategies,
        caller,
      });
      return featureFlagView(updated);
    },
  }),

  // GitLab answers the deleted flag.
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/feature_flags/:feature_flag_name',
    access: 'user',
    scope: 'api',
    input: featureFlagParams,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      return featureFlagView(await deps.featureFlags.delete(project, input.feature_flag_name, caller));
    },
  }),
];
