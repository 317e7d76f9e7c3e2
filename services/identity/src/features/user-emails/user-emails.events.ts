import { identityEvents } from '@platform/identity-client';
import type { UserEmailSnapshot } from '@platform/proto/identity/v1/user-email-events';
import type { User } from '../users/user.entity.ts';
import type { UserEmail } from './user-email.entity.ts';

function userEmailSnapshot(email: UserEmail): UserEmailSnapshot {
  return { id: email.id, email: email.email, confirmedAt: email.confirmedAt?.toISOString() ?? '' };
}

// Keyed by the owner, so a user's email events stay in order with the user's own.
export function userEmailAddedEvent(owner: User, email: UserEmail) {
  return identityEvents.userEmailAdded.event({
    aggregateId: owner.id,
    data: { userId: owner.id, username: owner.username, email: userEmailSnapshot(email) },
  });
}

export function userEmailRemovedEvent(owner: User, email: UserEmail) {
  return identityEvents.userEmailRemoved.event({
    aggregateId: owner.id,
    data: { userId: owner.id, username: owner.username, email: userEmailSnapshot(email) },
  });
}
