import { defineEvent } from '@platform/events';
import { PersonalAccessTokenRevoked } from '@platform/proto/identity/v1/events';
import { IDENTITY_TOPIC } from '../users/users.events.ts';

/** Keyed by the token's owner, so it stays in order with the owner's own events (blocking, say). */
export const personalAccessTokenRevoked = defineEvent('identity.personal_access_token.revoked', PersonalAccessTokenRevoked, {
  topic: IDENTITY_TOPIC,
});
