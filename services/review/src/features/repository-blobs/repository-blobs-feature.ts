import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { repositoryBlobsRoutes, type RepositoryBlobsRouteDeps } from './repository-blobs-routes.ts';

/** A repository's blobs by id: base64 in JSON, or raw. */
export function createRepositoryBlobsFeature(deps: RepositoryBlobsRouteDeps): Feature {
  return { routes: [createRouter(repositoryBlobsRoutes, deps)] };
}
