import type { EventEnvelope, EventHandler } from '@platform/events';
import type { AuditDetails, EntityType } from '../audit-event.entity.ts';
import type { NewAuditEvent } from '../audit-events-store.ts';

/** Turns one domain event type into the audit event it stands for, or none. */
export type AuditTranslation = EventHandler<NewAuditEvent | undefined>;

/** What was done: one of add, remove, change with from and to, or a custom message. */
export type AuditAction = Pick<AuditDetails, 'add' | 'as' | 'remove' | 'change' | 'from' | 'to' | 'custom_message'>;

/** The user, group or project an audit event belongs to; `path` becomes `entity_path`. */
export interface AuditedEntity {
  type: EntityType;
  id: number;
  path: string;
}

/** What the action was done to. */
export interface AuditTarget {
  id: number | string;
  type: string;
  details: string;
}

/** The author of changes made by the system itself, as GitLab records them. */
const SYSTEM_AUTHOR = { id: -1, name: 'System' };

/**
 * An audit event of `entity`, recording `action` on `target`; author, time, source and IP come
 * from the domain event.
 */
export function auditEvent(
  event: EventEnvelope,
  options: { entity: AuditedEntity; eventName: string; target: AuditTarget; action: AuditAction },
): NewAuditEvent {
  const author = event.actor ? { id: event.actor.id, name: event.actor.name } : SYSTEM_AUTHOR;
  return {
    authorId: author.id,
    sourceEventId: event.id,
    createdAt: new Date(event.occurredAt),
    entityId: options.entity.id,
    entityType: options.entity.type,
    eventName: options.eventName,
    details: {
      author_name: author.name,
      ip_address: event.actor?.ip ?? null,
      ...options.action,
      target_id: options.target.id,
      target_type: options.target.type,
      target_details: options.target.details,
      entity_path: options.entity.path,
    },
  };
}

/**
 * Instance-level changes are audit events of the administrator who made them (entity `User`), as
 * GitLab records them; without an actor (the system), of the system's author.
 */
export function instanceAuditEvent(
  event: EventEnvelope,
  options: { eventName: string; target: AuditTarget; action: AuditAction },
): NewAuditEvent {
  const administrator = event.actor ?? { id: SYSTEM_AUTHOR.id, username: SYSTEM_AUTHOR.name };
  return auditEvent(event, { ...options, entity: { type: 'User', id: administrator.id, path: administrator.username } });
}
