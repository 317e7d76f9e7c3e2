import { UserCreated, type UserSnapshot } from '@platform/proto/identity/v1/events';
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

export function userCreatedEvent(user: User) {
  return {
    topic: IDENTITY_TOPIC,
    type: 'identity.user.created',
    aggregateId: user.id,
    data: UserCreated.toJSON({ user: userSnapshot(user) }) as Record<string, unknown>,
  };
}
