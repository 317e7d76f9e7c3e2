import { z } from 'zod';
import { requireUser } from '@platform/auth';
import { inUnitOfWork, type Orm } from '@platform/db';
import { unaryHandler, type GrpcServiceBinding } from '@platform/grpc';
import { pageParams, parseParams } from '@platform/http';
import type { Logger } from '@platform/logger';
import { ReviewServiceService, type ListDeployedMergeRequestsResponse, type ReviewServiceServer } from '@platform/proto/review/v1';
import { requireProjectAccess } from '@platform/identity-client';
import { codeReaders } from '../repositories/repository-access.ts';
import { mergeRequestsDeployedBetween } from './deployed-merge-requests.ts';
import { filterOf, listPage, listShape } from './merge-request-finder.ts';
import type { MergeRequestsRouteDeps } from './merge-request-route-support.ts';

const listParameters = z.object(listShape);

/** What other services ask about merge requests, for the user they act for. */
export function mergeRequestsGrpc(options: { orm: Orm; deps: MergeRequestsRouteDeps; logger: Logger }): GrpcServiceBinding {
  const { deps, orm } = options;
  const implementation: Pick<ReviewServiceServer, 'listDeployedMergeRequests'> = {
    listDeployedMergeRequests: unaryHandler(options.logger, (request, context) =>
      inUnitOfWork(orm, async (): Promise<ListDeployedMergeRequestsResponse> => {
        const caller = requireUser(context.caller);
        const project = await requireProjectAccess({ access: deps.access, caller, idOrPath: request.projectId, ...codeReaders() });
        const input = parseParams(listParameters, request.parameters);
        const deployed = await mergeRequestsDeployedBetween({
          mergeRequests: deps.mergeRequests,
          repository: await deps.repositories.ensure(project.id),
          sha: request.sha,
          previousSha: request.previousSha,
        });
        const filter = await filterOf(deps, caller, input, 'all');
        const iids = deployed.map((mergeRequest) => mergeRequest.iid);
        filter.projectIds = [project.id];
        filter.iids = filter.iids ? filter.iids.filter((iid) => iids.includes(iid)) : iids;
        const { items, total } = await listPage({
          deps,
          caller,
          input,
          filter,
          window: pageParams(input),
          projectOf: async () => project,
          fromOwnProject: true,
          acrossProjects: false,
          exactTotal: true,
        });
        // Counted exactly: never null.
        return { mergeRequestsJson: items.map((view) => JSON.stringify(view)), total: total ?? items.length };
      }),
    ),
  };
  return { definition: ReviewServiceService, implementation, scopes: { listDeployedMergeRequests: ['read_api'] } };
}
