import type { EventEnvelope } from '@platform/events';
import type { AuditDetails } from '../audit-event.entity.ts';
import type { NewAuditEvent } from '../audit-events-store.ts';

/** Turns one domain event into the audit event it stands for, or none. */
export type AuditTranslation = (event: EventEnvelope) => NewAuditEvent | undefined;

/** The author of changes made by the system itself, as GitLab records them. */
const SYSTEM_AUTHOR = { id: -1, name: 'System' };

/** The fields every audit event takes from its domain event: author, time, source and IP. */
export function auditEventBase(
  event: EventEnvelope,
): Pick<NewAuditEvent, 'authorId' | 'sourceEventId' | 'createdAt'> & { details: Pick<AuditDetails, 'author_name' | 'ip_address'> } {
  const author = event.actor ? { id: event.actor.id, name: event.actor.name } : SYSTEM_AUTHOR;
  return {
    authorId: author.id,
    sourceEventId: event.id,
    createdAt: new Date(event.occurredAt),
    details: { author_name: author.name, ip_address: event.actor?.ip ?? null },
  };
}
