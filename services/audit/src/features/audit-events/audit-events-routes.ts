import { pageParams, routesOf } from '@platform/http';
import type { AuditEventsService } from './audit-events-service.ts';
import { auditEventView } from './audit-events-views.ts';
import { auditEventIdParams, instanceAuditEventsQuery } from './audit-events.schemas.ts';

const route = routesOf<{ auditEvents: AuditEventsService }>('audit');

/** Instance audit events: administrators only. */
export const auditEventsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/audit_events',
    access: 'administrator',
    scope: 'read_api',
    input: instanceAuditEventsQuery,
    handle: async ({ input, deps: { auditEvents }, page }) => {
      const window = pageParams(input);
      const result = await auditEvents.list(
        {
          createdAfter: input.created_after,
          createdBefore: input.created_before,
          entityType: input.entity_type,
          entityId: input.entity_id,
        },
        { offset: window.offset, limit: window.perPage },
      );
      return page(window, { ...result, items: result.items.map(auditEventView) });
    },
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
