import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { repositoryFilesRoutes, type RepositoryFilesRouteDeps } from './repository-files-routes.ts';

/** Files of a repository at a ref (metadata with base64 content, raw bytes, blame), and commits creating, updating or deleting one. */
export function createRepositoryFilesFeature(deps: RepositoryFilesRouteDeps): Feature {
  return { routes: [createRouter(repositoryFilesRoutes, deps)] };
}
