import { identityEvents } from '@platform/identity-client';
import type { AttributeChange, UserSnapshot } from '@platform/proto/identity/v1/events';
import type { User } from './user.entity.ts';

export function userSnapshot(user: User): UserSnapshot {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    isAdmin: user.isAdmin,
    state: user.state,
    privateProfile: user.privateProfile,
  };
}

export function userCreatedEvent(user: User) {
  return identityEvents.userCreated.event({ aggregateId: user.id, data: { user: userSnapshot(user) } });
}

export function userUpdatedEvent(user: User, changes: AttributeChange[]) {
  return identityEvents.userUpdated.event({ aggregateId: user.id, data: { user: userSnapshot(user), changes } });
}

export function userBlockedEvent(user: User) {
  return identityEvents.userBlocked.event({ aggregateId: user.id, data: { user: userSnapshot(user) } });
}

export function userUnblockedEvent(user: User) {
  return identityEvents.userUnblocked.event({ aggregateId: user.id, data: { user: userSnapshot(user) } });
}

export function userDeletedEvent(user: User, options: { hardDelete: boolean; ghostUserId: number }) {
  return identityEvents.userDeleted.event({
    aggregateId: user.id,
    data: { user: userSnapshot(user), hardDelete: options.hardDelete, ghostUserId: options.ghostUserId },
  });
}
