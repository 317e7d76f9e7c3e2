import { GpgKeyAdded, GpgKeyRemoved, SshKeyAdded, SshKeyRemoved, type UserSnapshot } from '@platform/proto/identity/v1/events';
import type { EventEnvelope } from '@platform/events';
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
export const keyAuditEvents: Record<string, AuditTranslation> = {
  'identity.ssh_key.added': (event) => {
    const { user, key } = SshKeyAdded.fromJSON(event.data);
    if (!user || !key) return undefined;
    const target = { id: key.id, type: 'Key', details: key.title };
    return keyAuditEvent(event, { user, eventName: 'add_ssh_key', target, action: { add: 'SSH key' } });
  },
  'identity.ssh_key.removed': (event) => {
    const { user, key } = SshKeyRemoved.fromJSON(event.data);
    if (!user || !key) return undefined;
    const target = { id: key.id, type: 'Key', details: key.title };
    return keyAuditEvent(event, { user, eventName: 'remove_ssh_key', target, action: { remove: 'SSH key' } });
  },
  'identity.gpg_key.added': (event) => {
    const { user, key } = GpgKeyAdded.fromJSON(event.data);
    if (!user || !key) return undefined;
    const target = { id: key.id, type: 'GpgKey', details: key.primaryKeyid };
    return keyAuditEvent(event, { user, eventName: 'add_gpg_key', target, action: { add: 'GPG key' } });
  },
  'identity.gpg_key.removed': (event) => {
    const { user, key } = GpgKeyRemoved.fromJSON(event.data);
    if (!user || !key) return undefined;
    const target = { id: key.id, type: 'GpgKey', details: key.primaryKeyid };
    return keyAuditEvent(event, { user, eventName: 'remove_gpg_key', target, action: { remove: 'GPG key' } });
  },
};
