import { GpgKeyAdded, GpgKeyRemoved, type GpgKeySnapshot } from '@platform/proto/identity/v1/events';
import type { User } from '../users/user.entity.ts';
import { IDENTITY_TOPIC, userSnapshot } from '../users/users.events.ts';
import type { GpgKey } from './gpg-key.entity.ts';

function gpgKeySnapshot(key: GpgKey): GpgKeySnapshot {
  return { id: key.id, primaryKeyid: key.primaryKeyid, fingerprint: key.fingerprint };
}

// Keyed by the owner, so a user's key events stay in order with the user's own.
export function gpgKeyAddedEvent(user: User, key: GpgKey) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.gpg_key.added',
    aggregateId: user.id,
    data: GpgKeyAdded.toJSON({ user: userSnapshot(user), key: gpgKeySnapshot(key) }) as Record<string, unknown>,
  };
}

export function gpgKeyRemovedEvent(user: User, key: GpgKey) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.gpg_key.removed',
    aggregateId: user.id,
    data: GpgKeyRemoved.toJSON({ user: userSnapshot(user), key: gpgKeySnapshot(key) }) as Record<string, unknown>,
  };
}
