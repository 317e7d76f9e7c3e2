/** Composition root of the delivery service: environments, deployments and feature flags. */
import { runService, type ServiceDefinition } from '@platform/service';
import { DELIVERY_TOPIC } from '@platform/delivery-client';
import { GrpcIdentityAccess, identityAccessFeature, type IdentityAccess } from '@platform/identity-client';
import { readConfig, type DeliveryConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { createDeploymentsFeature, deploymentsEntities } from './features/deployments/deployments-feature.ts';
import { createFeatureFlagsFeature, featureFlagsEntities } from './features/feature-flags/feature-flags-feature.ts';
import { GrpcDeployedMergeRequests, type DeployedMergeRequests } from './features/deployments/deployed-merge-requests.ts';
import { createUnleashFeature } from './features/unleash/unleash-feature.ts';

/** `identityAccess` replaces the gRPC client to identity (tests give a fake). */
export function deliveryService(
  config: DeliveryConfig,
  clients: { identityAccess?: IdentityAccess; deployedMergeRequests?: DeployedMergeRequests } = {},
): ServiceDefinition<DeliveryConfig> {
  return {
    name: 'delivery',
    config,
    entities: [...deploymentsEntities, ...featureFlagsEntities],
    migrations,
    publishes: [DELIVERY_TOPIC],
    features: ({ em }) => {
      const access =
        clients.identityAccess ?? new GrpcIdentityAccess({ address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET });
      const mergeRequests =
        clients.deployedMergeRequests ??
        new GrpcDeployedMergeRequests({ address: config.REVIEW_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET });
      const featureFlags = createFeatureFlagsFeature({ em, access });
      return [
        createDeploymentsFeature({ em, access, mergeRequests }),
        featureFlags,
        createUnleashFeature({ flags: featureFlags.flags, clients: featureFlags.clients }),
        identityAccessFeature(access),
      ];
    },
  };
}

if (import.meta.main) await runService(deliveryService(readConfig()));
