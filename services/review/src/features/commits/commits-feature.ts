import { createRouter } from '@platform/http';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import { commitsRoutes, type CommitsRouteDeps } from './commits-routes.ts';
import { commitsGrpc } from './commits-grpc.ts';

/** A repository's commits, over HTTP and to other services over gRPC. */
export function createCommitsFeature(deps: CommitsRouteDeps & { logger: Logger }): Feature {
  return {
    routes: [createRouter(commitsRoutes, { access: deps.access, repositories: deps.repositories })],
    rpcs: [commitsGrpc(deps)],
  };
}
