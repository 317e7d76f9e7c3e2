import type { IdentityAccess } from '@platform/identity-client';
import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { AuditEvent } from './audit-event.entity.ts';
import { auditTranslations } from './audit-event-translation.ts';
import { PgAuditEventStore } from './audit-events-store.ts';
import { AuditEventsService } from './audit-events-service.ts';
import { auditEventsRoutes } from './audit-events-routes.ts';
import { entityAuditEventsRoutes } from './entity-audit-events-routes.ts';

export const auditEventsEntities = [AuditEvent];

/** Audit events: recorded from the domain events they stand for, served to administrators and owners. */
export function createAuditEventsFeature(deps: { em: EntityManager; access: IdentityAccess }): Feature {
  const auditEvents = new AuditEventsService({ store: new PgAuditEventStore(deps.em) });
  return {
    routes: [createRouter(auditEventsRoutes, { auditEvents }), createRouter(entityAuditEventsRoutes, { auditEvents, access: deps.access })],
    consumes: auditTranslations.map(({ type, topic }) => ({ type, topic, handle: (event) => auditEvents.recordFrom(event) })),
  };
}
