/**
 * The delivery events after which a project's Unleash clients may be answered differently: its
 * flags, their strategies, its user lists or its instance id changed. Every replica follows them
 * (an event feed of its own) to forget what it keeps of that project.
 */
import { DELIVERY_TOPIC, deliveryEvents } from '@platform/delivery-client';
import { createKafka, onEvent, startEventFeed, type EventEnvelope, type EventFeed, type EventHandler } from '@platform/events';
import type { Logger } from '@platform/logger';

const CLIENT_ANSWER_EVENTS: Array<EventHandler<number>> = [
  onEvent(deliveryEvents.featureFlagCreated, ({ projectId }) => projectId),
  onEvent(deliveryEvents.featureFlagUpdated, ({ projectId }) => projectId),
  onEvent(deliveryEvents.featureFlagToggled, ({ projectId }) => projectId),
  onEvent(deliveryEvents.featureFlagDeleted, ({ projectId }) => projectId),
  onEvent(deliveryEvents.featureFlagUserListUpdated, ({ projectId }) => projectId),
  onEvent(deliveryEvents.featureFlagsClientTokenReset, ({ projectId }) => projectId),
];

/** The project whose client answers the event may have changed; undefined for other events. */
export function projectChangedBy(event: EventEnvelope): number | undefined {
  return CLIENT_ANSWER_EVENTS.find((handler) => handler.type === event.type)?.handle(event);
}

/** Follows delivery's events on this replica, calling `forget` with each project they change. */
export function followClientAnswerEvents(options: {
  brokers: string[];
  topicPrefix: string;
  logger: Logger;
  forget: (projectId: number) => void;
}): EventFeed {
  return startEventFeed({
    kafka: createKafka({ brokers: options.brokers, clientId: 'delivery-unleash', logger: options.logger }),
    topics: [DELIVERY_TOPIC],
    topicPrefix: options.topicPrefix,
    name: 'delivery.unleash-clients',
    logger: options.logger,
    onEvent: (event) => {
      const projectId = projectChangedBy(event);
      if (projectId !== undefined) options.forget(projectId);
    },
  });
}
