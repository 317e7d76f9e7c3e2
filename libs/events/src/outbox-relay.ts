/**
 * Outbox relay: publishes outbox rows to Kafka, oldest first, and marks them published.
 *
 * Guarantee: at-least-once, ordered per key. Keys are hashed into buckets; a relay publishes a
 * bucket only while it holds that bucket's session advisory lock on its own connection (the one
 * that also LISTENs), so with several replicas each key has one publisher at a time, and a
 * replica that dies releases its buckets with its connection. Rows are read, sent with a short
 * timeout and then marked in a separate statement: no transaction, row lock or pool connection
 * is held across a Kafka call. A row is marked only after Kafka acknowledged it (acks=all); a
 * crash between publish and mark republishes it, and consumers deduplicate by event id.
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
/** Keys hash into this many buckets, each owned by at most one relay at a time. */
const BUCKETS = 16;
/** The advisory lock class of the buckets ("outb"); advisory locks are per database. */
const BUCKET_LOCK_CLASS = 0x6f757462;
/** A send that takes longer is abandoned and retried later, so a stop never waits long. */
const SEND_TIMEOUT_MS = 5000;
const MAX_RECONNECT_DELAY_MS = 1000;
const tracer = trace.getTracer('@platform/events');

function withTimeout<Value>(promise: Promise<Value>, ms: number, what: string): Promise<Value> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

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
  // Few, short retries: the relay's own backoff takes over rather than a minute-long kafkajs chain.
  const producer: Producer = options.kafka.producer({
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 1000 },
  });
  let producerConnected = false;
  let stopped = false;
  let running: Promise<number> | undefined;
  let again = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  /** The connection that LISTENs and holds the bucket locks; undefined while it is being re-established. */
  let listener: pg.Client | undefined;
  const heldBuckets = new Set<number>();
  let reconnectDelay = 100;

  async function claimBuckets(client: pg.Client): Promise<void> {
    const wanted = Array.from({ length: BUCKETS }, (_, bucket) => bucket).filter((bucket) => !heldBuckets.has(bucket));
    if (wanted.length === 0) return;
    const claimed = await client.query<{ bucket: number }>(
      'select bucket from unnest($1::int[]) as bucket where pg_try_advisory_lock($2, bucket)',
      [wanted, BUCKET_LOCK_CLASS],
    );
    // Only count the locks if this connection is still the one holding them.
    if (listener === client) for (const row of claimed.rows) heldBuckets.add(row.bucket);
  }

  async function publishBatch(): Promise<number> {
    const client = listener;
    if (!client) return 0;
    await claimBuckets(client);
    if (heldBuckets.size === 0) return 0;
    if (!producerConnected) {
      await withTimeout(
        ensureTopics(
          options.kafka,
          options.topics.map((topic) => `${topicPrefix}${topic}`),
        ),
        SEND_TIMEOUT_MS,
        'creating topics',
      );
      await withTimeout(producer.connect(), SEND_TIMEOUT_MS, 'connecting to Kafka');
      producerConnected = true;
    }
    const em = options.orm.em.fork();
    const rows = (await em.execute(
      `select id, topic, key, envelope from outbox
       where published_at is null and (hashtext(key) & ${BUCKETS - 1}) in (?)
       order by id limit ?`,
      [[...heldBuckets], BATCH_SIZE],
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
        await withTimeout(
          producer.sendBatch({
            acks: -1,
            topicMessages: [...byTopic].map(([topic, topicRows]) => ({
              topic: `${topicPrefix}${topic}`,
              messages: topicRows.map((row) => ({
                key: row.key,
                value: JSON.stringify(row.envelope),
                headers: { ...row.envelope.traceContext, 'event-id': row.envelope.id, 'event-type': row.envelope.type },
              })),
            })),
          }),
          SEND_TIMEOUT_MS,
          'publishing to Kafka',
        );
      } finally {
        span.end();
      }
    });
    await em.execute('update outbox set published_at = now() where id in (?)', [rows.map((row) => row.id)]);
    return rows.length;
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
    const backoff = failures === 0 ? (options.pollIntervalMs ?? 1000) : Math.min(5000, 250 * 2 ** failures);
    timer = setTimeout(() => void wake(), backoff);
    timer.unref();
  }

  async function connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: options.databaseUrl, application_name: 'outbox-relay' });
    const lost = (error?: Error) => {
      if (listener !== client) return;
      listener = undefined;
      heldBuckets.clear();
      void client.end().catch(() => undefined);
      if (stopped) return;
      logger.warn({ err: error }, 'outbox listener lost; reconnecting');
      setTimeout(reconnect, reconnectDelay).unref();
      reconnectDelay = Math.min(MAX_RECONNECT_DELAY_MS, reconnectDelay * 2);
    };
    client.on('notification', () => void wake());
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    await client.query('listen outbox');
    listener = client;
    reconnectDelay = 100;
  }

  function reconnect(): void {
    if (stopped || listener) return;
    connectListener().then(
      () => {
        logger.info('outbox listener re-established');
        // Events committed while nobody listened are published now.
        void wake();
      },
      (error: unknown) => {
        logger.warn({ err: error }, 'outbox listener not re-established yet');
        setTimeout(reconnect, reconnectDelay).unref();
        reconnectDelay = Math.min(MAX_RECONNECT_DELAY_MS, reconnectDelay * 2);
      },
    );
  }

  await connectListener();
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
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      if (producerConnected) await producer.disconnect();
    },
  };
}
