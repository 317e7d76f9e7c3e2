import { identityEvents } from '@platform/identity-client';
import { type AttributeChange, type UserSnapshot } from '@platform/proto/identity/v1/events';
import { onEvent, type EventEnvelope } from '@platform/events';
import type { NewAuditEvent } from '../audit-events-store.ts';
import { auditEvent, type AuditAction, type AuditTranslation } from './translation-helpers.ts';

/** An audit event of the user itself: the user is both the entity and the target. */
function userAuditEvent(event: EventEnvelope, options: { user: UserSnapshot; eventName: string; action: AuditAction }): NewAuditEvent {
  const { user } = options;
  return auditEvent(event, {
    entity: { type: 'User', id: user.id, path: user.username },
    eventName: options.eventName,
    target: { id: user.id, type: 'User', details: user.username },
    action: options.action,
  });
}

/** One change reads as `change`/`from`/`to`; several, or a secret one (empty values), as a message. */
function changeAction(changes: AttributeChange[]): AuditAction {
  const [only] = changes;
  if (changes.length === 1 && only && (only.from || only.to)) return { change: only.attribute, from: only.from, to: only.to };
  return { custom_message: `Changed ${changes.map((change) => change.attribute).join(', ')}` };
}

/**
 * The state changes identity records as updates of `state`, under the names and messages GitLab's
 * services give their audit events (`Users::DeactivateService`, `ActivateService`, `BanService`, `UnbanService`).
 */
function stateChangeAudit(change: AttributeChange | undefined): { eventName: string; message: string } | undefined {
  if (change?.attribute !== 'state') return undefined;
  if (change.to === 'deactivated') return { eventName: 'user_deactivate', message: 'Deactivated user' };
  if (change.to === 'banned') return { eventName: 'ban_user', message: 'Banned user' };
  if (change.from === 'banned' && change.to === 'active') return { eventName: 'unban_user', message: 'Unbanned user' };
  if (change.from === 'deactivated' && change.to === 'active') return { eventName: 'user_activate', message: 'Activated user' };
  return undefined;
}

/** Audit events for identity's user events, by event type. */
export const userAuditEvents: AuditTranslation[] = [
  onEvent(identityEvents.userCreated, (data, event) => {
    const user = data.user;
    return user && userAuditEvent(event, { user, eventName: 'user_created', action: { add: 'user' } });
  }),
  onEvent(identityEvents.userUpdated, (data, event) => {
    const { user, changes } = data;
    if (!user || changes.length === 0) return undefined;
    const state = changes.length === 1 ? stateChangeAudit(changes[0]) : undefined;
    if (state) return userAuditEvent(event, { user, eventName: state.eventName, action: { custom_message: state.message } });
    return userAuditEvent(event, { user, eventName: 'user_updated', action: changeAction(changes) });
  }),
  onEvent(identityEvents.userBlocked, (data, event) => {
    const user = data.user;
    return user && userAuditEvent(event, { user, eventName: 'user_blocked', action: { custom_message: 'Blocked user' } });
  }),
  onEvent(identityEvents.userUnblocked, (data, event) => {
    const user = data.user;
    return user && userAuditEvent(event, { user, eventName: 'user_unblocked', action: { custom_message: 'Unblocked user' } });
  }),
  onEvent(identityEvents.userDeleted, (data, event) => {
    const user = data.user;
    return user && userAuditEvent(event, { user, eventName: 'user_destroyed', action: { remove: 'user' } });
  }),
];
