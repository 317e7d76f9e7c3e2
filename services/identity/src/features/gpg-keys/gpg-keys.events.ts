import { identityEvents } from '@platform/identity-client';
import type { GpgKeySnapshot } from '@platform/proto/identity/v1/events';
import type { User } from '../users/user.entity.ts';
import { userSnapshot } from '../users/users.events.ts';
import type { GpgKey } from './gpg-key.entity.ts';

function gpgKeySnapshot(key: GpgKey): GpgKeySnapshot {
  return { id: key.id, primaryKeyid: key.primaryKeyid, fingerprint: key.fingerprint };
}

// Keyed by the owner, so a user's key events stay in order with the user's own.
export function gpgKeyAddedEvent(user: User, key: GpgKey) {
  return identityEvents.gpgKeyAdded.event({ aggregateId: user.id, data: { user: userSnapshot(user), key: gpgKeySnapshot(key) } });
}

export function gpgKeyRemovedEvent(user: User, key: GpgKey) {
  return identityEvents.gpgKeyRemoved.event({ aggregateId: user.id, data: { user: userSnapshot(user), key: gpgKeySnapshot(key) } });
}
