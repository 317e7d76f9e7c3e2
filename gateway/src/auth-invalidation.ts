/**
 * Keeps the gateway's token cache honest: identity's change events (a user created, blocked,
 * unblocked, updated or deleted; a token revoked) drop that user's cached answers the moment
 * they arrive, on every gateway replica.
 */
import { createKafka, onEvent, startEventFeed, type EventEnvelope, type EventFeed, type EventHandler } from '@platform/events';
import { IDENTITY_TOPIC, identityEvents } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import type { Authenticator } from './authenticator.ts';

/** The events that may change how a user authenticates, decoded through identity's catalogue, each naming that user. */
const AUTHORIZATION_EVENTS: Array<EventHandler<number | undefined>> = [
  onEvent(identityEvents.userCreated, ({ user }) => user?.id),
  onEvent(identityEvents.userUpdated, ({ user }) => user?.id),
  onEvent(identityEvents.userBlocked, ({ user }) => user?.id),
  onEvent(identityEvents.userUnblocked, ({ user }) => user?.id),
  onEvent(identityEvents.userDeleted, ({ user }) => user?.id),
  onEvent(identityEvents.personalAccessTokenRevoked, ({ userId }) => userId),
];

export class MalformedIdentityEvent extends Error {}

/** The users whose authorization an event may have changed; none for other events. */
export function affectedUserIds(event: EventEnvelope): number[] {
  const handler = AUTHORIZATION_EVENTS.find((candidate) => candidate.type === event.type);
  if (!handler) return [];
  const userId = handler.handle(event);
  if (userId === undefined || !Number.isSafeInteger(userId) || userId <= 0) {
    throw new MalformedIdentityEvent(`${event.type} ${event.id} names no user`);
  }
  return [userId];
}

/** What the feed does with each event: forgets the users it names; a malformed event is logged and skipped. */
export function invalidateOn(options: { authenticator: Pick<Authenticator, 'forgetUser'>; logger: Pick<Logger, 'warn'> }) {
  return (event: EventEnvelope): void => {
    let userIds: number[];
    try {
      userIds = affectedUserIds(event);
    } catch (error) {
      options.logger.warn({ err: error, type: event.type, eventId: event.id }, 'ignoring a malformed identity event');
      return;
    }
    for (const userId of userIds) options.authenticator.forgetUser(userId);
  };
}

export function startAuthInvalidation(options: {
  brokers: string[];
  topicPrefix: string;
  authenticator: Authenticator;
  logger: Logger;
}): EventFeed {
  return startEventFeed({
    kafka: createKafka({ brokers: options.brokers, clientId: 'gateway', logger: options.logger }),
    topics: [IDENTITY_TOPIC],
    topicPrefix: options.topicPrefix,
    name: 'gateway.auth-invalidation',
    logger: options.logger,
    onEvent: invalidateOn(options),
  });
}
