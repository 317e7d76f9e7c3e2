import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { repositoryCompareRoutes, type RepositoryCompareRouteDeps } from './repository-compare-routes.ts';

/** Comparing two refs of a repository, and the merge base of several. */
export function createRepositoryCompareFeature(deps: RepositoryCompareRouteDeps): Feature {
  return { routes: [createRouter(repositoryCompareRoutes, deps)] };
}
