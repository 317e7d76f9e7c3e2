import { identityEvents } from '@platform/identity-client';
import type { AttributeChange, UserSnapshot } from '@platform/proto/identity/v1/events';
import type { User, UserState } from './user.entity.ts';

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

/**
 * A user's move from state `from` to their current one: blocking and unblocking have events of
 * their own; deactivation, activation, bans and their lifting are updates of `state`. Each makes
 * the gateways forget what they cached about the user.
 */
export function userStateChangedEvent(user: User, from: UserState) {
  const data = { user: userSnapshot(user) };
  if (user.state === 'blocked') return identityEvents.userBlocked.event({ aggregateId: user.id, data });
  if (from === 'blocked') return identityEvents.userUnblocked.event({ aggregateId: user.id, data });
  return userUpdatedEvent(user, [{ attribute: 'state', from, to: user.state }]);
}

export function userDeletedEvent(user: User, options: { hardDelete: boolean; ghostUserId: number }) {
  return identityEvents.userDeleted.event({
    aggregateId: user.id,
    data: { user: userSnapshot(user), hardDelete: options.hardDelete, ghostUserId: options.ghostUserId },
  });
}
