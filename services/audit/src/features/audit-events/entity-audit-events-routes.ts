import { Router } from 'express';
import { requireUser } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import { asyncHandler, callerOf, pageParams, parseParams, requestParams, sendPage } from '@platform/http';
import type { EntityType } from './audit-event.entity.ts';
import type { AuditEventsService } from './audit-events-service.ts';
import { auditEventView } from './audit-events-routes.ts';
import { entityAuditEventParams, entityAuditEventsQuery } from './audit-events.schemas.ts';
import type { AuditedResource, ResourceAccess } from './resource-access.ts';

/** Group audit events are for group owners, project audit events for maintainers and above. */
const ENTITIES = [
  { prefix: 'groups', resource: 'group', entityType: 'Group', minimumLevel: 50 },
  { prefix: 'projects', resource: 'project', entityType: 'Project', minimumLevel: 40 },
] as const satisfies ReadonlyArray<{ prefix: string; resource: AuditedResource; entityType: EntityType; minimumLevel: number }>;

export function entityAuditEventsRoutes(options: { auditEvents: AuditEventsService; access: ResourceAccess }): Router {
  const { auditEvents, access } = options;
  const router = Router();

  for (const { prefix, resource, entityType, minimumLevel } of ENTITIES) {
    router.get(
      `/api/v4/${prefix}/:id/audit_events`,
      asyncHandler(async (req, res) => {
        const caller = requireUser(callerOf(req));
        const query = parseParams(entityAuditEventsQuery, requestParams(req));
        const entityId = await access.require({ resource, idOrPath: String(query.id), caller, minimumLevel });
        const page = pageParams(query);
        const { items, total } = await auditEvents.list(
          { entityType, entityId, createdAfter: query.created_after, createdBefore: query.created_before },
          { offset: page.offset, limit: page.perPage },
        );
        sendPage(req, res, { page, total, items: items.map(auditEventView) });
      }),
    );

    router.get(
      `/api/v4/${prefix}/:id/audit_events/:audit_event_id`,
      asyncHandler(async (req, res) => {
        const caller = requireUser(callerOf(req));
        const input = parseParams(entityAuditEventParams, req.params);
        const entityId = await access.require({ resource, idOrPath: String(input.id), caller, minimumLevel });
        const event = await auditEvents.get(input.audit_event_id);
        if (event.entityType !== entityType || event.entityId !== entityId) throw new NotFoundError('Audit Event');
        res.json(auditEventView(event));
      }),
    );
  }

  return router;
}
