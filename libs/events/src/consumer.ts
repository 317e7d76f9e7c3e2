import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import type { Kafka } from 'kafkajs';
import type { Logger } from '@platform/logger';
import { inUnitOfWork, type Orm } from '@platform/db';
import { eventEnvelopeSchema, type EventEnvelope } from './envelope.ts';
import { ensureTopics } from './kafka-client.ts';

export interface EventConsumer {
  stop(): Promise<void>;
}

const tracer = trace.getTracer('@platform/events');

/**
 * Consumes events with at-least-once delivery and applies each one exactly once: the event id
 * is recorded in `processed_events` in the same transaction as the handler's changes, and an
 * id seen before is skipped. The handler runs in its own unit of work, inside the event's trace.
 */
export async function startConsumer(options: {
  kafka: Kafka;
  orm: Orm;
  groupId: string;
  /** Created if missing before subscribing. */
  topics: string[];
  /** Put before every topic name, as the producing relay does. */
  topicPrefix?: string;
  logger: Logger;
  handle: (event: EventEnvelope) => Promise<void>;
}): Promise<EventConsumer> {
  const logger = options.logger.child({ component: 'consumer', groupId: options.groupId });
  const topics = options.topics.map((topic) => `${options.topicPrefix ?? ''}${topic}`);
  await ensureTopics(options.kafka, topics);
  const consumer = options.kafka.consumer({ groupId: options.groupId, allowAutoTopicCreation: false });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });

  async function apply(event: EventEnvelope): Promise<void> {
    await inUnitOfWork(options.orm, () =>
      options.orm.em.transactional(async (em) => {
        const claimed = await em.execute(
          'insert into processed_events (event_id, consumer) values (?, ?) on conflict do nothing returning event_id',
          [event.id, options.groupId],
        );
        if (claimed.length === 0) return;
        await options.handle(event);
      }),
    );
  }

  await consumer.run({
    eachMessage: async ({ topic, partition, message }) => {
      let event: EventEnvelope;
      try {
        event = eventEnvelopeSchema.parse(JSON.parse(message.value?.toString('utf8') ?? ''));
      } catch (error) {
        // A message that is not an envelope can never be applied; retrying would block the partition.
        logger.error({ err: error, topic, partition, offset: message.offset }, 'skipping malformed event');
        return;
      }
      const parent = propagation.extract(context.active(), event.traceContext);
      await tracer.startActiveSpan(`process ${event.type}`, { kind: SpanKind.CONSUMER }, parent, async (span) => {
        try {
          await apply(event);
        } catch (error) {
          logger.error({ err: error, eventId: event.id, type: event.type }, 'event handler failed; will retry');
          throw error;
        } finally {
          span.end();
        }
      });
    },
  });

  return {
    async stop() {
      await consumer.disconnect();
    },
  };
}
