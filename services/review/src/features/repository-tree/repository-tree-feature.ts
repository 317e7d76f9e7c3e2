import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { repositoryTreeRoutes, type RepositoryTreeRouteDeps } from './repository-tree-routes.ts';

/** A repository's tree at a ref, one level or recursively, paginated. */
export function createRepositoryTreeFeature(deps: RepositoryTreeRouteDeps): Feature {
  return { routes: [createRouter(repositoryTreeRoutes, deps)] };
}
