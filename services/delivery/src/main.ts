/** Composition root of the delivery service: environments, deployments, feature flags, commit statuses and external pipelines. */
import { runService, type ServiceDefinition } from '@platform/service';
import { DELIVERY_TOPIC } from '@platform/delivery-client';
import { GrpcIdentityAccess, identityAccessFeature, type IdentityAccess } from '@platform/identity-client';
import { readConfig, type DeliveryConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { createDeploymentsFeature, deploymentsEntities } from './features/deployments/deployments-feature.ts';
import { createFeatureFlagsFeature, featureFlagsEntities } from './features/feature-flags/feature-flags-feature.ts';
import {
  GrpcBranchUpdates,
  GrpcDeployedMergeRequests,
  GrpcProjectCommits,
  type BranchUpdates,
  type DeployedMergeRequests,
  type ProjectCommits,
} from '@platform/review-client';
import { createUnleashFeature } from './features/unleash/unleash-feature.ts';
import { commitStatusesEntities, createCommitStatusesFeature } from './features/commit-statuses/commit-statuses-feature.ts';
import { createPipelinesFeature, pipelinesEntities } from './features/pipelines/pipelines-feature.ts';

/** `identityAccess`, `projectCommits` and `branchUpdates` replace the gRPC clients to identity and review (tests give fakes). */
export function deliveryService(
  config: DeliveryConfig,
  clients: {
    identityAccess?: IdentityAccess;
    deployedMergeRequests?: DeployedMergeRequests;
    projectCommits?: ProjectCommits;
    branchUpdates?: BranchUpdates;
  } = {},
): ServiceDefinition<DeliveryConfig> {
  return {
    name: 'delivery',
    config,
    entities: [...deploymentsEntities, ...featureFlagsEntities, ...pipelinesEntities, ...commitStatusesEntities],
    migrations,
    publishes: [DELIVERY_TOPIC],
    features: ({ em, logger }) => {
      const access =
        clients.identityAccess ?? new GrpcIdentityAccess({ address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET });
      const review = { address: config.REVIEW_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET };
      const mergeRequests = clients.deployedMergeRequests ?? new GrpcDeployedMergeRequests(review);
      const commits = clients.projectCommits ?? new GrpcProjectCommits(review);
      const branches = clients.branchUpdates ?? new GrpcBranchUpdates(review);
      const featureFlags = createFeatureFlagsFeature({ em, access });
      return [
        createDeploymentsFeature({ em, access, mergeRequests, commits }),
        featureFlags,
        createPipelinesFeature({ em, access }),
        createCommitStatusesFeature({ em, access, commits, branches }),
        createUnleashFeature({
          flags: featureFlags.flags,
          clients: featureFlags.clients,
          changes: featureFlags.changes,
          kafka: { brokers: config.KAFKA_BROKERS, topicPrefix: config.KAFKA_TOPIC_PREFIX },
          logger,
        }),
        identityAccessFeature(access),
      ];
    },
  };
}

if (import.meta.main) await runService(deliveryService(readConfig()));
