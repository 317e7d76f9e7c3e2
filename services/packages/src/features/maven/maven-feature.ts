import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { PackagesCore } from '../packages/packages-feature.ts';
import { MavenRegistry } from './maven-registry.ts';
import { mavenRoutes } from './maven-routes.ts';

/** The Maven repository over the shared package store and files. */
export function createMavenFeature(deps: { core: PackagesCore; access: IdentityAccess; maxFileBytes: number }): Feature {
  const maven = new MavenRegistry({
    store: deps.core.store,
    storage: deps.core.storage,
    packages: deps.core.packages,
    access: deps.access,
    maxFileBytes: deps.maxFileBytes,
  });
  return { routes: [createRouter(mavenRoutes, { access: deps.access, maven })] };
}
