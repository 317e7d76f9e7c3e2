/**
 * Identity's events after which a user's summary (username, name, state, avatar) may read
 * differently. Every replica follows them (an event feed of its own) to forget that user.
 */
import { createKafka, onEvent, startEventFeed, type EventEnvelope, type EventFeed, type EventHandler } from '@platform/events';
import { IDENTITY_TOPIC, identityEvents } from '@platform/identity-client';
import type { Logger } from '@platform/logger';

const USER_SUMMARY_EVENTS: Array<EventHandler<number | undefined>> = [
  onEvent(identityEvents.userUpdated, ({ user }) => user?.id),
  onEvent(identityEvents.userBlocked, ({ user }) => user?.id),
  onEvent(identityEvents.userUnblocked, ({ user }) => user?.id),
  onEvent(identityEvents.userDeleted, ({ user }) => user?.id),
];

/** The user whose summary the event may have changed; undefined for other events. */
export function userChangedBy(event: EventEnvelope): number | undefined {
  return USER_SUMMARY_EVENTS.find((handler) => handler.type === event.type)?.handle(event);
}

/** Follows identity's events on this replica, calling `forget` with each user they change. */
export function followUserEvents(options: {
  brokers: string[];
  topicPrefix: string;
  logger: Logger;
  forget: (userId: number) => void;
}): EventFeed {
  return startEventFeed({
    kafka: createKafka({ brokers: options.brokers, clientId: 'review-users', logger: options.logger }),
    topics: [IDENTITY_TOPIC],
    topicPrefix: options.topicPrefix,
    name: 'review.user-summaries',
    logger: options.logger,
    onEvent: (event) => {
      const userId = userChangedBy(event);
      if (userId !== undefined) options.forget(userId);
    },
  });
}
