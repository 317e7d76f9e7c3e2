import { identityEvents } from '@platform/identity-client';
import type { SshKeySnapshot } from '@platform/proto/identity/v1/events';
import type { User } from '../users/user.entity.ts';
import { userSnapshot } from '../users/users.events.ts';
import type { SshKey } from './ssh-key.entity.ts';

function sshKeySnapshot(key: SshKey): SshKeySnapshot {
  return { id: key.id, title: key.title, fingerprintSha256: key.fingerprintSha256, usageType: key.usageType };
}

// Keyed by the owner, so a user's key events stay in order with the user's own.
export function sshKeyAddedEvent(user: User, key: SshKey) {
  return identityEvents.sshKeyAdded.event({ aggregateId: user.id, data: { user: userSnapshot(user), key: sshKeySnapshot(key) } });
}

export function sshKeyRemovedEvent(user: User, key: SshKey) {
  return identityEvents.sshKeyRemoved.event({ aggregateId: user.id, data: { user: userSnapshot(user), key: sshKeySnapshot(key) } });
}
