/** Composition root of the audit service: consumes domain events and serves audit and activity events. */
import { runService, type ServiceDefinition } from '@platform/service';
import { GrpcIdentityAccess, identityAccessFeature, type IdentityAccess } from '@platform/identity-client';
import { readConfig, type AuditConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { auditEventsEntities, createAuditEventsFeature } from './features/audit-events/audit-events-feature.ts';
import { activityEventsEntities, createActivityEventsFeature } from './features/activity-events/activity-events-feature.ts';

/** `identityAccess` replaces the gRPC client to identity (tests give a fake). */
export function auditService(config: AuditConfig, clients: { identityAccess?: IdentityAccess } = {}): ServiceDefinition<AuditConfig> {
  return {
    name: 'audit',
    config,
    entities: [...auditEventsEntities, ...activityEventsEntities],
    migrations,
    features: ({ em, logger }) => {
      const access =
        clients.identityAccess ?? new GrpcIdentityAccess({ address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET });
      return [
        createAuditEventsFeature({ em, access }),
        createActivityEventsFeature({
          em,
          logger,
          access,
          externalUrl: config.EXTERNAL_URL,
          accessCacheTtlMs: config.ACTIVITY_ACCESS_CACHE_TTL_MS,
          retentionIntervalMs: config.ACTIVITY_RETENTION_INTERVAL_MS,
        }),
        identityAccessFeature(access),
      ];
    },
  };
}

if (import.meta.main) await runService(auditService(readConfig()));
