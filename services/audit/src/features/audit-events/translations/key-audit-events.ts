import { identityEvents } from '@platform/identity-client';
import { type UserSnapshot } from '@platform/proto/identity/v1/events';
import { onEvent, type EventEnvelope } from '@platform/events';
import type { NewAuditEvent } from '../audit-events-store.ts';
import { auditEvent, type AuditTarget, type AuditTranslation } from './translation-helpers.ts';

/** A key event is an audit event of the key's owner, with the key as its target. */
function keyAuditEvent(
  event: EventEnvelope,
  options: { user: UserSnapshot; eventName: string; target: AuditTarget; action: { add: string } | { remove: string } },
): NewAuditEvent {
  return auditEvent(event, { ...options, entity: { type: 'User', id: options.user.id, path: options.user.username } });
}

/** Audit events for SSH and GPG keys added to and removed from users. */
export const keyAuditEvents: AuditTranslation[] = [
  onEvent(identityEvents.sshKeyAdded, (data, event) => {
    const { user, key } = data;
    if (!user || !key) return undefined;
    const target = { id: key.id, type: 'Key', details: key.title };
    return keyAuditEvent(event, { user, eventName: 'add_ssh_key', target, action: { add: 'SSH key' } });
  }),
  onEvent(identityEvents.sshKeyRemoved, (data, event) => {
    const { user, key } = data;
    if (!user || !key) return undefined;
    const target = { id: key.id, type: 'Key', details: key.title };
    return keyAuditEvent(event, { user, eventName: 'remove_ssh_key', target, action: { remove: 'SSH key' } });
  }),
  onEvent(identityEvents.gpgKeyAdded, (data, event) => {
    const { user, key } = data;
    if (!user || !key) return undefined;
    const target = { id: key.id, type: 'GpgKey', details: key.primaryKeyid };
    return keyAuditEvent(event, { user, eventName: 'add_gpg_key', target, action: { add: 'GPG key' } });
  }),
  onEvent(identityEvents.gpgKeyRemoved, (data, event) => {
    const { user, key } = data;
    if (!user || !key) return undefined;
    const target = { id: key.id, type: 'GpgKey', details: key.primaryKeyid };
    return keyAuditEvent(event, { user, eventName: 'remove_gpg_key', target, action: { remove: 'GPG key' } });
  }),
];
