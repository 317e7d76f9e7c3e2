import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { PackagesCore } from '../packages/packages-feature.ts';
import { GenericRegistry } from './generic-registry.ts';
import { genericRoutes } from './generic-routes.ts';

/** Generic packages over the shared package store and files. */
export function createGenericFeature(deps: { core: PackagesCore; access: IdentityAccess; maxFileBytes: number }): Feature {
  const generic = new GenericRegistry({
    store: deps.core.store,
    storage: deps.core.storage,
    packages: deps.core.packages,
    maxFileBytes: deps.maxFileBytes,
  });
  return { routes: [createRouter(genericRoutes, { access: deps.access, generic })] };
}
