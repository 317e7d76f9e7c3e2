import { z } from 'zod';
import { params } from '@platform/http';
import { ENTITY_TYPES } from './audit-event.entity.ts';

export const instanceAuditEventsQuery = z
  .object({
    created_after: params.datetime().optional(),
    created_before: params.datetime().optional(),
    entity_type: z.enum(ENTITY_TYPES).optional(),
    entity_id: params.integer().optional(),
  })
  .superRefine((input, context) => {
    if (input.entity_id !== undefined && input.entity_type === undefined) {
      context.addIssue({ code: 'custom', path: ['entity_type'], message: 'is missing' });
    }
  });

export const auditEventIdParams = z.object({ id: params.integer() });

/** `GET /groups/:id/audit_events` and `GET /projects/:id/audit_events`; `:id` is an id or a full path. */
export const entityAuditEventsQuery = z.object({
  id: params.idOrPath(),
  created_after: params.datetime().optional(),
  created_before: params.datetime().optional(),
});

export const entityAuditEventParams = z.object({ id: params.idOrPath(), audit_event_id: params.integer() });
