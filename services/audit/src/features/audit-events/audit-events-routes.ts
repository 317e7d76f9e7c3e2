import { routesOf } from '@platform/http';
import { AUDIT_EVENT_ORDER, auditEventPage } from './audit-event-pages.ts';
import type { AuditEventsService } from './audit-events-service.ts';
import { auditEventView } from './audit-events-views.ts';
import { auditEventIdParams, instanceAuditEventsQuery } from './audit-events.schemas.ts';

const route = routesOf<{ auditEvents: AuditEventsService }>('audit');

/** Instance audit events: administrators only. */
export const auditEventsRoutes = [
  route.list({
    path: '/api/v4/audit_events',
    access: 'administrator',
    scope: 'read_api',
    input: instanceAuditEventsQuery,
    order: AUDIT_EVENT_ORDER,
    keyset: true,
    handle: (context) =>
      auditEventPage(context, context.deps.auditEvents, {
        createdAfter: context.input.created_after,
        createdBefore: context.input.created_before,
        entityType: context.input.entity_type,
        entityId: context.input.entity_id,
      }),
  }),

  route({
    method: 'GET',
    path: '/api/v4/audit_events/:id',
    access: 'administrator',
    scope: 'read_api',
    input: auditEventIdParams,
    handle: async ({ input, deps: { auditEvents } }) => auditEventView(await auditEvents.get(input.id)),
  }),
];
