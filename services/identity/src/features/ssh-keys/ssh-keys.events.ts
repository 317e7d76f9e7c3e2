import { SshKeyAdded, SshKeyRemoved, type SshKeySnapshot } from '@platform/proto/identity/v1/events';
import type { User } from '../users/user.entity.ts';
import { IDENTITY_TOPIC, userSnapshot } from '../users/users.events.ts';
import type { SshKey } from './ssh-key.entity.ts';

function sshKeySnapshot(key: SshKey): SshKeySnapshot {
  return { id: key.id, title: key.title, fingerprintSha256: key.fingerprintSha256, usageType: key.usageType };
}

// Keyed by the owner, so a user's key events stay in order with the user's own.
export function sshKeyAddedEvent(user: User, key: SshKey) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.ssh_key.added',
    aggregateId: user.id,
    data: SshKeyAdded.toJSON({ user: userSnapshot(user), key: sshKeySnapshot(key) }) as Record<string, unknown>,
  };
}

export function sshKeyRemovedEvent(user: User, key: SshKey) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.ssh_key.removed',
    aggregateId: user.id,
    data: SshKeyRemoved.toJSON({ user: userSnapshot(user), key: sshKeySnapshot(key) }) as Record<string, unknown>,
  };
}
