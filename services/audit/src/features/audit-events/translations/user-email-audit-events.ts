import { identityEvents } from '@platform/identity-client';
import { onEvent } from '@platform/events';
import { auditEvent, type AuditTranslation } from './translation-helpers.ts';

const owner = (data: { userId: number; username: string }) => ({ type: 'User' as const, id: data.userId, path: data.username });
const target = (email: { id: number; email: string }) => ({ id: email.id, type: 'Email', details: email.email });

/** Audit events of secondary emails added and removed: their owner's, as GitLab's `Emails::CreateService` and `DestroyService` record them. */
export const userEmailAuditEvents: AuditTranslation[] = [
  onEvent(identityEvents.userEmailAdded, (data, event) =>
    data.email
      ? auditEvent(event, {
          entity: owner(data),
          eventName: 'email_created',
          target: target(data.email),
          action: { add: 'email', custom_message: 'Email created' },
        })
      : undefined,
  ),
  onEvent(identityEvents.userEmailRemoved, (data, event) =>
    data.email
      ? auditEvent(event, {
          entity: owner(data),
          eventName: 'email_destroyed',
          target: target(data.email),
          action: { remove: 'email', custom_message: 'Email destroyed' },
        })
      : undefined,
  ),
];
