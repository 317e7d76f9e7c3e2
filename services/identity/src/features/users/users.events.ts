import {
  UserBlocked,
  UserCreated,
  UserDeleted,
  UserUnblocked,
  UserUpdated,
  type AttributeChange,
  type UserSnapshot,
} from '@platform/proto/identity/v1/events';
import type { User } from './user.entity.ts';

/** Identity's events travel on one topic, keyed by the aggregate id. */
export const IDENTITY_TOPIC = 'identity.events';

export function userSnapshot(user: User): UserSnapshot {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    isAdmin: user.isAdmin,
    state: user.state,
  };
}

function userEvent(user: User, type: string, data: unknown) {
  return { topic: IDENTITY_TOPIC, type, aggregateId: user.id, data: data as Record<string, unknown> };
}

export function userCreatedEvent(user: User) {
  return userEvent(user, 'identity.user.created', UserCreated.toJSON({ user: userSnapshot(user) }));
}

export function userUpdatedEvent(user: User, changes: AttributeChange[]) {
  return userEvent(user, 'identity.user.updated', UserUpdated.toJSON({ user: userSnapshot(user), changes }));
}

export function userBlockedEvent(user: User) {
  return userEvent(user, 'identity.user.blocked', UserBlocked.toJSON({ user: userSnapshot(user) }));
}

export function userUnblockedEvent(user: User) {
  return userEvent(user, 'identity.user.unblocked', UserUnblocked.toJSON({ user: userSnapshot(user) }));
}

export function userDeletedEvent(user: User, options: { hardDelete: boolean; ghostUserId: number }) {
  return userEvent(
    user,
    'identity.user.deleted',
    UserDeleted.toJSON({ user: userSnapshot(user), hardDelete: options.hardDelete, ghostUserId: options.ghostUserId }),
  );
}
