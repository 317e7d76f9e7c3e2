import { NotFoundError } from '@platform/errors';
import { routesOf } from '@platform/http';
import { AUDIT_EVENT_ORDER, auditEventPage } from './audit-event-pages.ts';
import type { AuditEventsService } from './audit-events-service.ts';
import { auditEventView } from './audit-events-views.ts';
import { entityAuditEventParams, entityAuditEventsQuery } from './audit-events.schemas.ts';
import type { IdentityAccess } from '@platform/identity-client';

const route = routesOf<{ auditEvents: AuditEventsService; access: IdentityAccess }>('audit');

/** Group audit events are for group owners, project audit events for maintainers and above. */
export const entityAuditEventsRoutes = (
  [
    {
      resource: 'group',
      entityType: 'Group',
      minimumLevel: 50,
      list: '/api/v4/groups/:id/audit_events',
      single: '/api/v4/groups/:id/audit_events/:audit_event_id',
    },
    {
      resource: 'project',
      entityType: 'Project',
      minimumLevel: 40,
      list: '/api/v4/projects/:id/audit_events',
      single: '/api/v4/projects/:id/audit_events/:audit_event_id',
    },
  ] as const
).flatMap(({ resource, entityType, minimumLevel, list, single }) => [
  route.list({
    path: list,
    access: 'user',
    scope: 'read_api',
    input: entityAuditEventsQuery,
    order: AUDIT_EVENT_ORDER,
    keyset: true,
    handle: async (context) => {
      const { caller, input, deps } = context;
      const entityId = await deps.access.require({ resource, idOrPath: String(input.id), caller, minimumLevel });
      return auditEventPage(context, deps.auditEvents, {
        entityType,
        entityId,
        createdAfter: input.created_after,
        createdBefore: input.created_before,
      });
    },
  }),

  route({
    method: 'GET',
    path: single,
    access: 'user',
    scope: 'read_api',
    input: entityAuditEventParams,
    handle: async ({ caller, input, deps: { auditEvents, access } }) => {
      const entityId = await access.require({ resource, idOrPath: String(input.id), caller, minimumLevel });
      const event = await auditEvents.get(input.audit_event_id);
      if (event.entityType !== entityType || event.entityId !== entityId) throw new NotFoundError('Audit Event');
      return auditEventView(event);
    },
  }),
]);
