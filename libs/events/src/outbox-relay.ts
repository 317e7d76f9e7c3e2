/**
 * Outbox relay: publishes outbox rows to Kafka, oldest first, and marks them published.
 *
 * Guarantee: at-least-once, ordered per key. Keys are hashed into buckets; a relay publishes a
 * bucket only while it holds that bucket's session advisory lock on its own connection (the one
 * that also LISTENs), so with several replicas each key has one publisher at a time, and a
 * replica that dies releases its buckets with its connection. Replicas share the buckets: each
 * one counts the live relays (holders of a shared membership lock) and keeps at most its fair
 * share, releasing extras between batches when a relay joins and claiming free buckets when one
 * left. A bucket changes hands only between two batches, after the first owner marked what it
 * sent, so the next owner continues where it stopped. Rows are read, sent with a short
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
  /** Publishes everything pending now in this relay's buckets; resolves with the number of events published. */
  flush(): Promise<number>;
  /** The buckets this relay publishes now (keys hash into 0..15). */
  buckets(): number[];
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
/** The shared lock every live relay holds ("outm", key 0), so that relays can count each other. */
const MEMBER_LOCK_CLASS = 0x6f75746d;
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

  /**
   * Keeps this relay's fair share of the buckets: releases the ones over its share (a relay
   * joined) and claims free ones up to it (a relay left, or this one just joined). Runs between
   * batches only, so a released bucket has nothing of this relay's in flight.
   */
  async function balanceBuckets(client: pg.Client): Promise<void> {
    const members = await client.query<{ count: number }>(
      `select count(*)::int as count from pg_locks
       where locktype = 'advisory' and granted and classid = $1::oid and objid = 0 and objsubid = 2
         and database = (select oid from pg_database where datname = current_database())`,
      [MEMBER_LOCK_CLASS],
    );
    const share = Math.ceil(BUCKETS / Math.max(1, members.rows[0]?.count ?? 1));
    if (heldBuckets.size > share) {
      const extras = [...heldBuckets].sort((a, b) => a - b).slice(share);
      await client.query('select pg_advisory_unlock($1, bucket) from unnest($2::int[]) as bucket', [BUCKET_LOCK_CLASS, extras]);
      for (const bucket of extras) heldBuckets.delete(bucket);
      // Wakes the other relays, so that one of them takes the released buckets now.
      await client.query(`select pg_notify('outbox', '')`);
      return;
    }
    if (heldBuckets.size === share) return;
    const free = Array.from({ length: BUCKETS }, (_, bucket) => bucket).filter((bucket) => !heldBuckets.has(bucket));
    // A scan stops at the limit, so no lock is taken beyond the share.
    const claimed = await client.query<{ bucket: number }>(
      'select bucket from unnest($1::int[]) as bucket where pg_try_advisory_lock($2, bucket) limit $3',
      [free, BUCKET_LOCK_CLASS, share - heldBuckets.size],
    );
    // Only count the locks if this connection is still the one holding them.
    if (listener === client) for (const row of claimed.rows) heldBuckets.add(row.bucket);
  }

  async function publishBatch(): Promise<number> {
    const client = listener;
    if (!client) return 0;
    await balanceBuckets(client);
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
    // Joins the relays and wakes them, so that they make room for this one at once.
    await client.query(`select pg_advisory_lock_shared($1, 0), pg_notify('outbox', '')`, [MEMBER_LOCK_CLASS]);
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
    buckets: () => [...heldBuckets].sort((a, b) => a - b),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      const client = listener;
      listener = undefined;
      heldBuckets.clear();
      // Hands the buckets over at once: the other relays wake and claim them.
      await client
        ?.query(`select pg_advisory_unlock_all(), pg_notify('outbox', '')`)
        .catch(() => undefined)
        .finally(() => client.end().catch(() => undefined));
      if (producerConnected) await producer.disconnect();
    },
  };
}
