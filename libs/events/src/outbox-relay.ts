/**
 * Outbox relay: publishes outbox rows to Kafka, oldest first, and marks them published.
 *
 * Guarantee: at-least-once, ordered per key. A row is marked only after Kafka acknowledged it
 * (acks=all); if Kafka is down the rows stay in the outbox and are retried with backoff, so no
 * event is lost. A crash between publish and mark republishes the batch: consumers deduplicate
 * by event id. `FOR UPDATE SKIP LOCKED` lets several replicas run a relay without double work.
 */
import pg from 'pg';
import { propagation, ROOT_CONTEXT, SpanKind, trace, type Link } from '@opentelemetry/api';
import { Partitioners, type Kafka, type Producer } from 'kafkajs';
import type { Logger } from '@platform/logger';
import type { Orm } from '@platform/db';
import type { EventEnvelope } from './envelope.ts';
import { ensureTopics } from './kafka-client.ts';

export interface OutboxRelay {
  /** Publishes everything pending now; resolves with the number of events published. */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  envelope: EventEnvelope;
}

const BATCH_SIZE = 200;
const tracer = trace.getTracer('@platform/events');

export async function startOutboxRelay(options: {
  orm: Orm;
  kafka: Kafka;
  databaseUrl: string;
  /** Topics this service publishes to; created before the first publish. */
  topics: string[];
  /** Put before every topic name, so that several platforms can share one Kafka cluster. */
  topicPrefix?: string;
  logger: Logger;
  /** Fallback poll interval; commits normally wake the relay at once through LISTEN/NOTIFY. */
  pollIntervalMs?: number;
}): Promise<OutboxRelay> {
  const logger = options.logger.child({ component: 'outbox-relay' });
  const topicPrefix = options.topicPrefix ?? '';
  // One request in flight keeps each key's events in order; duplicates are the consumers' to drop.
  const producer: Producer = options.kafka.producer({
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  let producerConnected = false;
  let stopped = false;
  let running: Promise<number> | undefined;
  let again = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  async function publishBatch(): Promise<number> {
    if (!producerConnected) {
      await ensureTopics(
        options.kafka,
        options.topics.map((topic) => `${topicPrefix}${topic}`),
      );
      await producer.connect();
      producerConnected = true;
    }
    const em = options.orm.em.fork();
    return em.transactional(async (tx) => {
      const rows = (await tx.execute(
        'select id, topic, key, envelope from outbox where published_at is null order by id limit ? for update skip locked',
        [BATCH_SIZE],
      )) as OutboxRow[];
      if (rows.length === 0) return 0;
      const byTopic = new Map<string, OutboxRow[]>();
      for (const row of rows) byTopic.set(row.topic, [...(byTopic.get(row.topic) ?? []), row]);
      // One span per batch, linked to the trace of every event in it.
      const links = rows.flatMap((row): Link[] => {
        const spanContext = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, row.envelope.traceContext));
        return spanContext ? [{ context: spanContext }] : [];
      });
      await tracer.startActiveSpan('outbox publish', { kind: SpanKind.PRODUCER, links }, async (span) => {
        try {
          await producer.sendBatch({
            acks: -1,
            topicMessages: [...byTopic].map(([topic, topicRows]) => ({
              topic: `${topicPrefix}${topic}`,
              messages: topicRows.map((row) => ({
                key: row.key,
                value: JSON.stringify(row.envelope),
                headers: { ...row.envelope.traceContext, 'event-id': row.envelope.id, 'event-type': row.envelope.type },
              })),
            })),
          });
        } finally {
          span.end();
        }
      });
      await tx.execute('update outbox set published_at = now() where id in (?)', [rows.map((row) => row.id)]);
      return rows.length;
    });
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await publishBatch();
      total += published;
      if (published < BATCH_SIZE) return total;
    }
  }

  /** Runs one drain at a time; a wake-up during a drain schedules one more. */
  function wake(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .then((count) => {
        failures = 0;
        return count;
      })
      .catch((error: unknown) => {
        failures += 1;
        logger.warn({ err: error, failures }, 'outbox publish failed; events stay in the outbox');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void wake();
        }
        schedule();
      });
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    clearTimeout(timer);
    const backoff = failures === 0 ? (options.pollIntervalMs ?? 1000) : Math.min(30_000, 250 * 2 ** failures);
    timer = setTimeout(() => void wake(), backoff);
    timer.unref();
  }

  const listener = new pg.Client({ connectionString: options.databaseUrl });
  listener.on('notification', () => void wake());
  listener.on('error', (error) => logger.warn({ err: error }, 'outbox listener lost; polling continues'));
  await listener.connect();
  await listener.query('listen outbox');
  void wake();

  return {
    async flush() {
      if (running) await running;
      return drain();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await listener.end().catch(() => undefined);
      if (producerConnected) await producer.disconnect();
    },
  };
}
