import { Router } from 'express';
import { requireAdmin } from '@platform/auth';
import { asyncHandler, callerOf, pageParams, parseParams, requestParams, sendPage } from '@platform/http';
import type { AuditEvent } from './audit-event.entity.ts';
import type { AuditEventsService } from './audit-events-service.ts';
import { auditEventIdParams, instanceAuditEventsQuery } from './audit-events.schemas.ts';

export function auditEventView(event: AuditEvent) {
  return {
    id: event.id,
    author_id: event.authorId,
    entity_id: event.entityId,
    entity_type: event.entityType,
    event_name: event.eventName,
    details: event.details,
    created_at: event.createdAt,
  };
}

export function auditEventsRoutes(options: { auditEvents: AuditEventsService }): Router {
  const router = Router();

  router.get(
    '/api/v4/audit_events',
    asyncHandler(async (req, res) => {
      requireAdmin(callerOf(req));
      const query = parseParams(instanceAuditEventsQuery, requestParams(req));
      const page = pageParams(query);
      const { items, total } = await options.auditEvents.list(
        {
          createdAfter: query.created_after,
          createdBefore: query.created_before,
          entityType: query.entity_type,
          entityId: query.entity_id,
        },
        { offset: page.offset, limit: page.perPage },
      );
      sendPage(req, res, { page, total, items: items.map(auditEventView) });
    }),
  );

  router.get(
    '/api/v4/audit_events/:id',
    asyncHandler(async (req, res) => {
      requireAdmin(callerOf(req));
      const { id } = parseParams(auditEventIdParams, req.params);
      res.json(auditEventView(await options.auditEvents.get(id)));
    }),
  );

  return router;
}
