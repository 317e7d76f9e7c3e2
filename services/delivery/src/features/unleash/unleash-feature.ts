import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { PgFeatureFlagsClientStore } from '../feature-flags/feature-flags-client-store.ts';
import type { PgFeatureFlagStore } from '../feature-flags/feature-flags-store.ts';
import { ClientFeaturesCache } from './client-features-cache.ts';
import { unleashRoutes } from './unleash-routes.ts';

/** The Unleash client API over the project's feature flags. */
export function createUnleashFeature(deps: { clients: PgFeatureFlagsClientStore; flags: PgFeatureFlagStore }): Feature {
  return { routes: [createRouter(unleashRoutes, { ...deps, answers: new ClientFeaturesCache() })] };
}
