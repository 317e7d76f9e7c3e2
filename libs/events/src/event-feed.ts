import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kafka } from 'kafkajs';
import type { Logger } from '@platform/logger';
import { eventEnvelopeSchema, type EventEnvelope } from './envelope.ts';
import { ensureTopics } from './kafka-client.ts';
import { keepConsumerRunning } from './restarting-consumer.ts';

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
 * Returns at once and joins in the background; when kafkajs gives up (a broker fault such as
 * "failed to find group coordinator"), the feed starts over in a fresh group.
 */
export function startEventFeed(options: {
  kafka: Kafka;
  topics: string[];
  topicPrefix?: string;
  /** What the feed is for (`gateway.auth-invalidation`); the instance's group is named below it. */
  name: string;
  logger: Logger;
  onEvent: (event: EventEnvelope) => void;
}): EventFeed {
  // Unique per instance (host, process, and a random part for several feeds of one name in a process); each start-over uses a new group below it.
  const groupId = `${options.name}.${hostname()}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const logger = options.logger.child({ component: 'event-feed', groupId });
  const topics = options.topics.map((topic) => `${options.topicPrefix ?? ''}${topic}`);
  const groupOf = (attempt: number) => `${groupId}.${attempt}`;
  let lastFetch = 0;
  let joined = false;
  let group = groupOf(1);

  const deleteGroup = async (groupId: string) => {
    const admin = options.kafka.admin();
    try {
      await admin.connect();
      await admin.deleteGroups([groupId]);
    } catch {
      // Best effort: an abandoned group without commits expires on its own.
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  };

  const running = keepConsumerRunning({
    logger,
    create: (attempt) => {
      group = groupOf(attempt);
      const consumer = options.kafka.consumer({
        groupId: group,
        allowAutoTopicCreation: false,
        retry: { initialRetryTime: 200, maxRetryTime: 2000, retries: 10 },
        // Fetches return at least this often when idle, so a silent feed is noticed within a few of them.
        maxWaitTimeInMs: FETCH_WAIT_MS,
      });
      // Fetching since the last join: by then the starting offsets are fixed, so nothing later is missed.
      consumer.on(consumer.events.FETCH, () => {
        if (joined && running.isCurrent(consumer)) {
          lastFetch = Date.now();
          running.healthy(consumer);
        }
      });
      consumer.on(consumer.events.GROUP_JOIN, () => {
        if (!running.isCurrent(consumer)) return;
        joined = true;
        lastFetch = 0;
      });
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        if (!running.isCurrent(consumer)) return;
        joined = false;
        logger.warn({ err: payload.error, restart: payload.restart }, 'event feed crashed');
        if (!payload.restart) running.gaveUp(consumer, payload.error);
      });
      consumer.on(consumer.events.DISCONNECT, () => {
        if (running.isCurrent(consumer)) joined = false;
      });
      return consumer;
    },
    start: async (consumer) => {
      await ensureTopics(options.kafka, topics);
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
    },
    dropped: (_consumer, attempt) => {
      joined = false;
      void deleteGroup(groupOf(attempt));
    },
  });

  return {
    isLive: () => joined && Date.now() - lastFetch < 3 * FETCH_WAIT_MS,
    async stop() {
      joined = false;
      await running.stop();
      await deleteGroup(group);
    },
  };
}
