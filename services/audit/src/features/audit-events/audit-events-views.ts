import type { AuditEvent } from './audit-event.entity.ts';

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
