import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import { forkEventHandlers } from './fork-events.ts';
import type { LabelsService } from '../labels/labels-service.ts';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { MergeRequest, MergeRequestDiff } from './merge-request.entity.ts';
import { PgMergeRequestStore } from './merge-requests-store.ts';
import { MergeRequestsService } from './merge-requests-service.ts';
import { mergeRequestsRoutes, type DeployedMergeRequestIds } from './merge-requests-routes.ts';
import { mergeRequestsGrpc } from './merge-requests-grpc.ts';
import type { UserDirectory } from '../core/user-directory.ts';

export const mergeRequestsEntities = [MergeRequest, MergeRequestDiff];

export interface MergeRequestsFeature extends Feature {
  mergeRequests: MergeRequestsService;
}

/**
 * Merge requests over HTTP and gRPC: they follow pushes to their branches (a fork's too), their lists
 * find those deployments shipped, and those from a fork close once it leaves its network.
 */
export function createMergeRequestsFeature(deps: {
  em: EntityManager;
  logger: Logger;
  access: IdentityAccess;
  repositories: RepositoriesService;
  protectedBranches: ProtectedBranchesService;
  users: UserDirectory;
  labels: LabelsService;
  milestones: MilestonesService;
  deployments: DeployedMergeRequestIds;
}): MergeRequestsFeature {
  const { repositories, logger } = deps;
  const mergeRequests = new MergeRequestsService({
    store: new PgMergeRequestStore(deps.em),
    repositories,
    protectedBranches: deps.protectedBranches,
    logger,
  });
  repositories.onRefsChanged(({ projectId, changes }) => mergeRequests.onRefsChanged(projectId, changes));
  const { labels, milestones } = deps;
  mergeRequests.addFactsSource(
    async (items) => new Map([...(await milestones.carriedBy(items))].map(([id, milestone]) => [id, { milestone }])),
  );
  const { deployments } = deps;
  const routeDeps = { access: deps.access, repositories, mergeRequests, users: deps.users, deployments, labels, milestones };
  return {
    mergeRequests,
    routes: [createRouter(mergeRequestsRoutes, routeDeps)],
    rpcs: [mergeRequestsGrpc({ deps: routeDeps, logger })],
    consumes: forkEventHandlers(mergeRequests),
  };
}
