import type { EventEnvelope } from '@platform/events';
import { UserCreated } from '@platform/proto/identity/v1/events';
import type { AuditDetails } from './audit-event.entity.ts';
import type { NewAuditEvent } from './audit-events-store.ts';

/** The author of changes made by the system itself, as GitLab records them. */
const SYSTEM_AUTHOR = { id: -1, name: 'System' };

function authorOf(event: EventEnvelope) {
  return event.actor ? { id: event.actor.id, name: event.actor.name } : SYSTEM_AUTHOR;
}

function base(event: EventEnvelope): Pick<NewAuditEvent, 'authorId' | 'sourceEventId' | 'createdAt'> & { details: Pick<AuditDetails, 'author_name' | 'ip_address'> } {
  const author = authorOf(event);
  return {
    authorId: author.id,
    sourceEventId: event.id,
    createdAt: new Date(event.occurredAt),
    details: { author_name: author.name, ip_address: event.actor?.ip ?? null },
  };
}

/** Which domain events become audit events, and how they read. Unknown types are not audited. */
export function auditEventFor(event: EventEnvelope): NewAuditEvent | undefined {
  switch (event.type) {
    case 'identity.user.created': {
      const user = UserCreated.fromJSON(event.data).user;
      if (!user) return undefined;
      const common = base(event);
      return {
        ...common,
        entityId: user.id,
        entityType: 'User',
        eventName: 'user_created',
        details: {
          ...common.details,
          add: 'user',
          target_id: user.id,
          target_type: 'User',
          target_details: user.username,
          entity_path: user.username,
        },
      };
    }
    default:
      return undefined;
  }
}
