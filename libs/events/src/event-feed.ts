import type { Kafka } from 'kafkajs';
import type { Logger } from '@platform/logger';
import { eventEnvelopeSchema, type EventEnvelope } from './envelope.ts';
import { ensureTopics } from './kafka-client.ts';

const FETCH_WAIT_MS = 500;

export interface EventFeed {
  /** True while events reach this instance: joined, fetching, not crashed. */
  isLive(): boolean;
  stop(): Promise<void>;
}

/**
 * Every instance sees every event from the moment it joins: each gets its own consumer group,
 * reads from the latest offset, commits nothing and deletes its group when it stops. For
 * instances that drop cached state when something changes (the gateway's token cache), where a
 * missed event must only make the cache distrust itself (`isLive` false), never be replayed.
 */
export async function startEventFeed(options: {
  kafka: Kafka;
  topics: string[];
  topicPrefix?: string;
  /** Unique per instance. */
  groupId: string;
  logger: Logger;
  onEvent: (event: EventEnvelope) => void;
}): Promise<EventFeed> {
  const logger = options.logger.child({ component: 'event-feed', groupId: options.groupId });
  const topics = options.topics.map((topic) => `${options.topicPrefix ?? ''}${topic}`);
  let lastFetch = 0;
  let joined = false;
  await ensureTopics(options.kafka, topics);
  const consumer = options.kafka.consumer({
    groupId: options.groupId,
    allowAutoTopicCreation: false,
    retry: { initialRetryTime: 200, maxRetryTime: 2000, retries: 10 },
    // Fetches return at least this often when idle, so a silent feed is noticed within a few of them.
    maxWaitTimeInMs: FETCH_WAIT_MS,
  });
  // Fetching since the last join: by then the starting offsets are fixed, so nothing later is missed.
  consumer.on(consumer.events.FETCH, () => {
    if (joined) lastFetch = Date.now();
  });
  consumer.on(consumer.events.GROUP_JOIN, () => {
    joined = true;
    lastFetch = 0;
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    joined = false;
    logger.warn({ err: payload.error, restart: payload.restart }, 'event feed crashed');
  });
  consumer.on(consumer.events.DISCONNECT, () => (joined = false));
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: false });
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ message }) => {
      try {
        options.onEvent(eventEnvelopeSchema.parse(JSON.parse(message.value?.toString('utf8') ?? '')));
      } catch (error) {
        logger.error({ err: error, offset: message.offset }, 'skipping unreadable event');
      }
    },
  });
  return {
    isLive: () => joined && Date.now() - lastFetch < 3 * FETCH_WAIT_MS,
    async stop() {
      joined = false;
      await consumer.disconnect();
      const admin = options.kafka.admin();
      await admin.connect();
      await admin.deleteGroups([options.groupId]).catch(() => undefined);
      await admin.disconnect();
    },
  };
}
