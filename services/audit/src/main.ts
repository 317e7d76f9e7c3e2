/** Composition root of the audit service: consumes domain events and serves audit events. */
import { runService, type ServiceDefinition } from '@platform/service';
import { GrpcIdentityAccess } from '@platform/identity-client';
import { createRouter } from '@platform/http';
import { readConfig, type AuditConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { AuditEvent } from './features/audit-events/audit-event.entity.ts';
import { PgAuditEventStore } from './features/audit-events/audit-events-store.ts';
import { AuditEventsService } from './features/audit-events/audit-events-service.ts';
import { auditEventsRoutes } from './features/audit-events/audit-events-routes.ts';
import { entityAuditEventsRoutes } from './features/audit-events/entity-audit-events-routes.ts';
import { auditTranslations } from './features/audit-events/audit-event-translation.ts';

export function auditService(config: AuditConfig): ServiceDefinition<AuditConfig> {
  return {
    name: 'audit',
    config,
    entities: [AuditEvent],
    migrations,
    features: ({ em }) => {
      const auditEvents = new AuditEventsService({ store: new PgAuditEventStore(em) });
      const access = new GrpcIdentityAccess({ address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET });
      return [
        {
          routes: [createRouter(auditEventsRoutes, { auditEvents }), createRouter(entityAuditEventsRoutes, { auditEvents, access })],
          readinessChecks: { identityChannel: async () => access.channelState() },
          consumes: auditTranslations.map(({ type, topic }) => ({ type, topic, handle: (event) => auditEvents.recordFrom(event) })),
          stop: () => access.close(),
        },
      ];
    },
  };
}

if (import.meta.main) await runService(auditService(readConfig()));
