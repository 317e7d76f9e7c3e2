import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { repositoryArchiveRoutes, type RepositoryArchiveRouteDeps } from './repository-archive-routes.ts';

/** Archives of a repository at a commit, in every format GitLab serves, streamed. */
export function createRepositoryArchiveFeature(deps: RepositoryArchiveRouteDeps): Feature {
  return { routes: [createRouter(repositoryArchiveRoutes, deps)] };
}
