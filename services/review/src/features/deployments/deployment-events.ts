/**
 * Delivery's deployment events, as they concern merge requests: a successful deployment shipped
 * the merge requests merged since the environment's previous successful one, which the merge
 * request lists then find by `environment`, `deployed_after` and `deployed_before`.
 */
import { deliveryEvents } from '@platform/delivery-client';
import { onEvent, type EventHandler } from '@platform/events';
import type { DeploymentChanged } from '@platform/proto/delivery/v1/events';
import { mergeRequestsDeployedBetween } from '../merge-requests/deployed-merge-requests.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { PgMergeRequestDeploymentStore } from './merge-request-deployments-store.ts';

export function deploymentEventHandlers(deps: {
  repositories: RepositoriesService;
  mergeRequests: MergeRequestsService;
  deployments: PgMergeRequestDeploymentStore;
}): EventHandler[] {
  const shipped = async (deployment: DeploymentChanged) => {
    if (deployment.status !== 'success') return;
    const mergeRequests = await mergeRequestsDeployedBetween({
      mergeRequests: deps.mergeRequests,
      repository: await deps.repositories.ensure(deployment.projectId),
      sha: deployment.sha,
      previousSha: deployment.previousSha,
    });
    await deps.deployments.record({
      deploymentId: deployment.deploymentId,
      projectId: deployment.projectId,
      environmentName: deployment.environmentName,
      deployedAt: new Date(deployment.finishedAt),
      mergeRequestIds: mergeRequests.map((mergeRequest) => mergeRequest.id),
    });
  };
  return [onEvent(deliveryEvents.deploymentCreated, shipped), onEvent(deliveryEvents.deploymentUpdated, shipped)];
}
