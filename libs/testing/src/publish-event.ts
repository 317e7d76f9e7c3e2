import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { testEnvironment } from './test-environment.ts';

/**
 * Publishes events to the run's Kafka as a producing service's relay would (envelope, key,
 * topic prefix), for testing a consumer without starting its producer. `event` is what an
 * event definition's `event()` returns; an `id` or `occurredAt` of its own replays an event or dates it.
 */
export async function publishEvents(options: {
  topicPrefix: string;
  events: Array<{
    topic: string;
    type: string;
    aggregateId: string | number;
    data: Record<string, unknown>;
    id?: string;
    occurredAt?: string;
  }>;
  actor?: { id: number; username: string; name: string } | null;
}): Promise<void> {
  const producer = new Kafka({ brokers: testEnvironment().kafkaBrokers, logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  try {
    for (const event of options.events) {
      const envelope = {
        id: event.id ?? randomUUID(),
        type: event.type,
        occurredAt: event.occurredAt ?? new Date().toISOString(),
        aggregateId: String(event.aggregateId),
        actor: options.actor ?? null,
        data: event.data,
        traceContext: {},
      };
      await producer.send({
        topic: `${options.topicPrefix}${event.topic}`,
        messages: [{ key: envelope.aggregateId, value: JSON.stringify(envelope) }],
      });
    }
  } finally {
    await producer.disconnect();
  }
}
