import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { commitsRoutes, type CommitsRouteDeps } from './commits-routes.ts';

/** A repository's commits. */
export function createCommitsFeature(deps: CommitsRouteDeps): Feature {
  return { routes: [createRouter(commitsRoutes, deps)] };
}
