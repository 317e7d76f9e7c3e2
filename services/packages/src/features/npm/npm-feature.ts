import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { PackagesCore } from '../packages/packages-feature.ts';
import { NpmRegistry } from './npm-registry.ts';
import { npmRoutes } from './npm-routes.ts';

/** The npm registry over the shared package store and files. */
export function createNpmFeature(deps: { core: PackagesCore; access: IdentityAccess; maxFileBytes: number }): Feature {
  const npm = new NpmRegistry({ ...deps.core, access: deps.access, maxFileBytes: deps.maxFileBytes });
  return { routes: [createRouter(npmRoutes, { access: deps.access, npm })] };
}
