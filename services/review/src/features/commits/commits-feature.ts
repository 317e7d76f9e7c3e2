import type { Orm } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import { commitsRoutes, type CommitsRouteDeps } from './commits-routes.ts';
import { commitsGrpc } from './commits-grpc.ts';

/** A repository's commits, read and written over HTTP, and read by other services over gRPC. */
export function createCommitsFeature(deps: CommitsRouteDeps & { orm: Orm; logger: Logger }): Feature {
  return {
    routes: [
      createRouter(commitsRoutes, {
        access: deps.access,
        repositories: deps.repositories,
        writer: deps.writer,
        picker: deps.picker,
        mergeRequests: deps.mergeRequests,
      }),
    ],
    rpcs: [commitsGrpc(deps)],
  };
}
