import type { Feature } from '@platform/service';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { deploymentEventHandlers } from './deployment-events.ts';
import { MergeRequestDeployment } from './merge-request-deployment.entity.ts';
import type { PgMergeRequestDeploymentStore } from './merge-request-deployments-store.ts';

export const deploymentsEntities = [MergeRequestDeployment];

/** Delivery's deployments, as they concern merge requests: each successful one records the merge requests it shipped. */
export function createDeploymentsFeature(deps: {
  repositories: RepositoriesService;
  mergeRequests: MergeRequestsService;
  deployments: PgMergeRequestDeploymentStore;
}): Feature {
  return { consumes: deploymentEventHandlers(deps) };
}
