/**
 * The outbox, its relay and the idempotent consumer against real PostgreSQL and Kafka.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { Registry } from 'prom-client';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { openDatabase, type Orm } from '@platform/db';
import { createLogger } from '@platform/logger';
import { startTelemetry, type Telemetry } from '@platform/telemetry';
import { createTestDatabase, testEnvironment, waitFor, type TestDatabase } from '@platform/testing';
import { ensureTopics, type EventEnvelope } from './index.ts';
import { eventMigrations, OutboxEntry, ProcessedEvent, recordEvent, startConsumer, startOutboxRelay } from './database.ts';

const logger = createLogger({ name: 'events-test', level: 'silent' });
const spans = new InMemorySpanExporter();
let telemetry: Telemetry;
let database: TestDatabase;
let orm: Orm;
const topic = `events-test-${randomUUID()}`;
const kafka = () => new Kafka({ brokers: testEnvironment().kafkaBrokers, logLevel: logLevel.NOTHING });

async function unpublished(): Promise<number> {
  const rows = await orm.em.fork().execute('select count(*)::int as count from outbox where published_at is null');
  return (rows[0] as { count: number }).count;
}

beforeAll(async () => {
  telemetry = startTelemetry({ serviceName: 'events-test', env: {}, spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
  database = createTestDatabase('events');
  orm = await openDatabase({
    url: database.url,
    entities: [OutboxEntry, ProcessedEvent],
    migrations: eventMigrations,
    logger,
  });
  await ensureTopics(kafka(), [topic]);
});

afterAll(async () => {
  await orm?.close();
  await database?.drop();
  await telemetry?.shutdown();
});

function record(data: Record<string, unknown>, aggregateId = String(data.n)) {
  return orm.em.fork().transactional(async (em) => recordEvent(em, { topic, type: 'test.thing.happened', aggregateId, actor: null, data }));
}

describe('the outbox', () => {
  it('keeps nothing from a transaction that rolled back', async () => {
    const before = await unpublished();
    await expect(
      orm.em.fork().transactional(async (em) => {
        recordEvent(em, { topic, type: 'test.thing.happened', aggregateId: '0', actor: null, data: {} });
        await em.flush();
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await unpublished()).toBe(before);
  });

  it('holds events while Kafka is unreachable and publishes them once it is back', async () => {
    const unreachable = new Kafka({ brokers: ['127.0.0.1:1'], logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 300 });
    const downRelay = await startOutboxRelay({
      orm,
      kafka: unreachable,
      databaseUrl: database.url,
      topics: [topic],
      logger,
      pollIntervalMs: 100,
    });
    // One aggregate: its events must arrive in the order they were recorded.
    await record({ n: 1 }, 'thing-a');
    await record({ n: 2 }, 'thing-a');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await unpublished()).toBe(2);
    await downRelay.stop();

    const received: EventEnvelope[] = [];
    const consumer = kafka().consumer({ groupId: `reader-${randomUUID()}` });
    const relay = await startOutboxRelay({ orm, kafka: kafka(), databaseUrl: database.url, topics: [topic], logger });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void received.push(JSON.parse(String(message.value))) });
    try {
      await waitFor(async () => (received.length >= 2 ? true : undefined), { what: 'both events on Kafka' });
      expect(received.map((event) => event.data)).toEqual([{ n: 1 }, { n: 2 }]);
      // Marked published in the transaction that read them, which commits after Kafka acknowledged.
      await waitFor(async () => ((await unpublished()) === 0 ? true : undefined), { what: 'the outbox drained' });
    } finally {
      await consumer.disconnect();
      await relay.stop();
    }
  });
});

describe('the consumer', () => {
  it('applies a redelivered event once, inside the trace that recorded it', async () => {
    const relay = await startOutboxRelay({ orm, kafka: kafka(), databaseUrl: database.url, topics: [topic], logger });
    const recorded = await trace.getTracer('test').startActiveSpan('request', async (span) => {
      try {
        return await record({ n: 3 });
      } finally {
        span.end();
      }
    });
    await relay.flush();
    // At-least-once delivery: the same envelope arrives a second time.
    const producer = kafka().producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ key: '3', value: JSON.stringify(recorded) }] });
    await producer.disconnect();

    const applied: Array<{ id: string; traceId: string | undefined }> = [];
    const consumer = startConsumer({
      kafka: kafka(),
      orm,
      groupId: `applier-${randomUUID()}`,
      topics: [topic],
      logger,
      handle: async (event) => {
        applied.push({ id: event.id, traceId: trace.getActiveSpan()?.spanContext().traceId });
      },
    });
    try {
      await waitFor(async () => (applied.some((event) => event.id === recorded.id) ? true : undefined), { what: 'the event applied' });
      // Let the duplicate arrive too.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(applied.filter((event) => event.id === recorded.id)).toHaveLength(1);
      const requestSpan = spans.getFinishedSpans().find((span) => span.name === 'request');
      expect(requestSpan).toBeDefined();
      expect(applied.find((event) => event.id === recorded.id)?.traceId).toBe(requestSpan?.spanContext().traceId);
      expect(recorded.traceContext.traceparent).toContain(requestSpan?.spanContext().traceId);
    } finally {
      await consumer.stop();
      await relay.stop();
    }
  });
});

/** A Kafka client whose connections can be frozen: requests go out, no answer comes back. */
function freezableKafka() {
  const sockets: net.Socket[] = [];
  let frozen = false;
  const kafka = new Kafka({
    brokers: testEnvironment().kafkaBrokers,
    logLevel: logLevel.NOTHING,
    socketFactory: ({ host, port, onConnect }) => {
      const socket = net.connect({ host, port }, onConnect);
      sockets.push(socket);
      if (frozen) socket.pause();
      return socket;
    },
  });
  return {
    kafka,
    freeze() {
      frozen = true;
      sockets.forEach((socket) => socket.pause());
      return sockets.reduce((sum, socket) => sum + socket.bytesWritten, 0);
    },
    written: () => sockets.reduce((sum, socket) => sum + socket.bytesWritten, 0),
    thaw() {
      frozen = false;
      sockets.forEach((socket) => socket.resume());
    },
  };
}

async function sessionsIdleInTransaction(): Promise<number> {
  const rows = await orm.em
    .fork()
    .execute(
      `select count(*)::int as count from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
    );
  return (rows[0] as { count: number }).count;
}

describe('the relay under faults', () => {
  it('holds no transaction open while Kafka does not answer, and publishes once it does', async () => {
    const broker = freezableKafka();
    const relay = await startOutboxRelay({ orm, kafka: broker.kafka, databaseUrl: database.url, topics: [topic], logger });
    try {
      await record({ n: 'before-freeze' }, 'frozen-broker');
      await waitFor(async () => ((await unpublished()) === 0 ? true : undefined), { what: 'the first event published' });
      const writtenBeforeFreeze = broker.freeze();
      await record({ n: 'during-freeze' }, 'frozen-broker');
      // The relay is sending now: its request reached the socket, and no answer will come.
      await waitFor(async () => (broker.written() > writtenBeforeFreeze ? true : undefined), { what: 'a send in flight' });
      expect(await sessionsIdleInTransaction()).toBe(0);
      expect(await unpublished()).toBe(1);
      broker.thaw();
      await waitFor(async () => ((await unpublished()) === 0 ? true : undefined), { what: 'the event published after the thaw' });
    } finally {
      broker.thaw();
      await relay.stop();
    }
  });

  it('listens again after its database connection was terminated', async () => {
    // Polling is effectively off: only a notification can wake the relay.
    const relay = await startOutboxRelay({
      orm,
      kafka: kafka(),
      databaseUrl: database.url,
      topics: [topic],
      logger,
      pollIntervalMs: 600_000,
    });
    const listenerPids = async () =>
      (
        (await orm.em
          .fork()
          .execute(`select pid from pg_stat_activity where datname = current_database() and application_name = 'outbox-relay'`)) as Array<{
          pid: number;
        }>
      ).map((row) => row.pid);
    try {
      const original = await waitFor(async () => (await listenerPids())[0], { what: 'the listener' });
      await orm.em.fork().execute('select pg_terminate_backend(?)', [original]);
      await waitFor(async () => ((await listenerPids()).some((pid) => pid !== original) ? true : undefined), { what: 'a new listener' });
      await record({ n: 'after-reconnect' }, 'listener');
      await waitFor(async () => ((await unpublished()) === 0 ? true : undefined), { what: 'the event published on notification' });
    } finally {
      await relay.stop();
    }
  });

  it('spreads the buckets over two relays, keeps each key in order, and loses nothing when one stops', async () => {
    const received: EventEnvelope[] = [];
    const reader = kafka().consumer({ groupId: `order-${randomUUID()}` });
    await reader.connect();
    await reader.subscribe({ topics: [topic], fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void received.push(JSON.parse(String(message.value))) });
    const startRelay = () =>
      startOutboxRelay({ orm, kafka: kafka(), databaseUrl: database.url, topics: [topic], logger, pollIntervalMs: 50 });
    const first = await startRelay();
    const second = await startRelay();
    const run = randomUUID();
    try {
      await waitFor(async () => (first.buckets().length === 8 && second.buckets().length === 8 ? true : undefined), {
        what: 'eight buckets each',
      });
      expect([...first.buckets(), ...second.buckets()].sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, bucket) => bucket));
      // Two keys in each relay's buckets, so that both must publish.
      const keys: string[] = [];
      for (const relay of [first, second]) {
        for (let candidate = 0, found = 0; found < 2; candidate += 1) {
          const key = `order-${run}-${candidate}`;
          const [row] = (await orm.em.fork().execute('select hashtext(?) & 15 as bucket', [key])) as Array<{ bucket: number }>;
          if (relay.buckets().includes(row?.bucket ?? -1) && !keys.includes(key)) {
            keys.push(key);
            found += 1;
          }
        }
      }
      const ours = () => received.filter((event) => event.data.run === run);
      const record80 = async (from: number, to: number) => {
        for (let sequence = from; sequence < to; sequence += 1) await record({ run, sequence }, keys[sequence % keys.length]);
      };
      await record80(0, 40);
      await waitFor(async () => (keys.every((key) => ours().some((event) => event.aggregateId === key)) ? true : undefined), {
        what: 'events of every key, from both relays',
      });
      // The first relay stops with events of its buckets possibly still pending; the second takes them over.
      await first.stop();
      await record80(40, 80);
      await waitFor(async () => (second.buckets().length === 16 ? true : undefined), { what: 'the second relay taking every bucket' });
      await waitFor(async () => (new Set(ours().map((event) => event.id)).size === 80 ? true : undefined), { what: 'all 80 events' });
      for (const key of keys) {
        const firstSeen = [
          ...new Map(
            ours()
              .filter((event) => event.aggregateId === key)
              .map((event) => [event.id, event]),
          ).values(),
        ];
        const sequences = firstSeen.map((event) => event.data.sequence as number);
        expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
        expect(sequences).toHaveLength(20);
      }
    } finally {
      await first.stop();
      await second.stop();
      await reader.disconnect();
    }
  });

  it('makes room for a relay that joins: the one holding every bucket hands half over', async () => {
    const first = await startOutboxRelay({ orm, kafka: kafka(), databaseUrl: database.url, topics: [topic], logger });
    try {
      await waitFor(async () => (first.buckets().length === 16 ? true : undefined), { what: 'every bucket on the only relay' });
      const second = await startOutboxRelay({ orm, kafka: kafka(), databaseUrl: database.url, topics: [topic], logger });
      try {
        // Polling is at its default (1 s); the joining relay's notification makes the handover quicker.
        await waitFor(async () => (first.buckets().length === 8 && second.buckets().length === 8 ? true : undefined), {
          what: 'eight buckets each',
          timeoutMs: 5000,
        });
        await record({ n: 'after-join' }, 'joined');
        await waitFor(async () => ((await unpublished()) === 0 ? true : undefined), { what: 'the event published' });
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  });
});

describe('the consumer under faults', () => {
  it('reports its lag, and starts over when kafkajs gives up on it, applying the event once', async () => {
    const metrics = new Registry();
    const relay = await startOutboxRelay({ orm, kafka: kafka(), databaseUrl: database.url, topics: [topic], logger });
    const poison = randomUUID();
    const groupId = `faulty-${randomUUID()}`;
    const failures: string[] = [];
    let applied = 0;
    const states = new Set<string>();
    const consumer = startConsumer({
      kafka: kafka(),
      orm,
      groupId,
      topics: [topic],
      logger,
      metrics,
      handle: async (event) => {
        if (event.data.poison !== poison) return;
        // An error kafkajs does not retry: it stops the consumer for good.
        if (failures.length === 0) {
          failures.push(event.id);
          throw new TypeError('handler bug');
        }
        applied += 1;
      },
    });
    try {
      await waitFor(async () => (consumer.state() === 'running' ? true : undefined), { what: 'the group joined' });
      await waitFor(async () => ((await metrics.getSingleMetricAsString('kafka_consumer_lag')).includes('partition=') ? true : undefined), {
        what: 'the lag gauge',
      });
      const watcher = setInterval(() => states.add(consumer.state()), 20);
      await record({ poison }, 'poison');
      await waitFor(async () => (applied > 0 ? true : undefined), {
        what: 'the event applied by the consumer started over',
        timeoutMs: 60_000,
      });
      clearInterval(watcher);
      expect(states).toContain('restarting');
      expect(consumer.state()).toBe('running');
      expect(applied).toBe(1);
      const rows = await orm.em
        .fork()
        .execute('select count(*)::int as count from processed_events where consumer = ? and event_id = ?', [groupId, failures[0]]);
      expect(rows[0]).toEqual({ count: 1 });
    } finally {
      await consumer.stop();
      await relay.stop();
    }
  });

  it('returns at once when Kafka is unreachable, and keeps trying instead of exiting', async () => {
    const unreachable = new Kafka({ brokers: ['127.0.0.1:1'], logLevel: logLevel.NOTHING, retry: { retries: 0 }, connectionTimeout: 300 });
    const consumer = startConsumer({
      kafka: unreachable,
      orm,
      groupId: `unreachable-${randomUUID()}`,
      topics: [topic],
      logger,
      handle: async () => undefined,
    });
    try {
      expect(consumer.state()).toBe('joining');
      await waitFor(async () => (consumer.state() === 'restarting' ? true : undefined), { what: 'the first attempt failed' });
    } finally {
      await consumer.stop();
    }
    expect(consumer.state()).toBe('stopped');
  });
});
