import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import type { EachMessagePayload, Kafka } from 'kafkajs';
import { Gauge, register as defaultRegistry, type Registry } from 'prom-client';
import type { Logger } from '@platform/logger';
import { inUnitOfWork, type Orm } from '@platform/db';
import { eventEnvelopeSchema, type EventEnvelope } from './envelope.ts';
import { ensureTopics } from './kafka-client.ts';
import { keepConsumerRunning } from './restarting-consumer.ts';

/** `joining` until the group is joined; `restarting` after a crash, or while a new consumer replaces one kafkajs gave up on. */
export type ConsumerState = 'joining' | 'running' | 'restarting' | 'stopped';

export interface EventConsumer {
  state(): ConsumerState;
  /** Commits what was applied and leaves the group. */
  stop(): Promise<void>;
}

const tracer = trace.getTracer('@platform/events');
const LAG_METRIC = 'kafka_consumer_lag';

function lagGauge(registry: Registry): Gauge<'group' | 'topic' | 'partition'> {
  const existing = registry.getSingleMetric(LAG_METRIC);
  if (existing) return existing as Gauge<'group' | 'topic' | 'partition'>;
  return new Gauge({
    name: LAG_METRIC,
    help: 'Messages on the partition not yet consumed by the group, as of its last fetched batch.',
    labelNames: ['group', 'topic', 'partition'] as const,
    registers: [registry],
  });
}

/**
 * Consumes events with at-least-once delivery and applies each one exactly once: the event id
 * is recorded in `processed_events` in the same transaction as the handler's changes, and an
 * id seen before is skipped. The handler runs in its own unit of work, inside the event's trace.
 * A failing event is retried with backoff capped at a few seconds. Returns at once: the consumer
 * joins in the background, and starts over as a new one whenever it cannot start (Kafka down)
 * or kafkajs gives up on it, so that the service serves what needs no Kafka meanwhile.
 */
export function startConsumer(options: {
  kafka: Kafka;
  orm: Orm;
  groupId: string;
  /** Created if missing before subscribing. */
  topics: string[];
  /** Put before every topic name, as the producing relay does. */
  topicPrefix?: string;
  logger: Logger;
  handle: (event: EventEnvelope) => Promise<void>;
  /** Where the lag gauge is registered; prom-client's default registry unless given. */
  metrics?: Registry;
}): EventConsumer {
  const logger = options.logger.child({ component: 'consumer', groupId: options.groupId });
  const topics = options.topics.map((topic) => `${options.topicPrefix ?? ''}${topic}`);
  const lag = lagGauge(options.metrics ?? defaultRegistry);
  let state: ConsumerState = 'joining';

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

  async function eachMessage({ topic, partition, message }: EachMessagePayload): Promise<void> {
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
  }

  const running = keepConsumerRunning({
    logger,
    create: () => {
      const consumer = options.kafka.consumer({
        groupId: options.groupId,
        allowAutoTopicCreation: false,
        // kafkajs waits up to its maxRetryTime (30 s by default) before restarting a crashed consumer.
        retry: { initialRetryTime: 200, maxRetryTime: 3000, retries: 10 },
        // A replica killed without leaving keeps its partitions until its session expires (30 s by
        // default); 10 s is the shortest the broker's default group.min.session.timeout.ms allows comfortably.
        sessionTimeout: 10_000,
        heartbeatInterval: 1000,
      });
      consumer.on(consumer.events.GROUP_JOIN, () => {
        if (running.isCurrent(consumer)) state = 'running';
      });
      consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
        running.healthy(consumer);
        lag.set(
          { group: options.groupId, topic: payload.topic, partition: String(payload.partition) },
          Math.max(0, Number(payload.offsetLag)),
        );
      });
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        if (!running.isCurrent(consumer)) return;
        state = 'restarting';
        if (payload.restart) logger.warn({ err: payload.error }, 'consumer crashed; kafkajs restarts it');
        else running.gaveUp(consumer, payload.error);
      });
      return consumer;
    },
    start: async (consumer) => {
      await ensureTopics(options.kafka, topics);
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning: true });
      await consumer.run({ eachMessage });
    },
    dropped: () => {
      state = 'restarting';
    },
  });

  return {
    state: () => state,
    async stop() {
      state = 'stopped';
      await running.stop();
    },
  };
}
