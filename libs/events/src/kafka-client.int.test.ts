import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHook } from 'node:async_hooks';
import type { Producer } from 'kafkajs';
import { createLogger } from '@platform/logger';
import { testEnvironment } from '@platform/testing';
import { createKafka } from './kafka-client.ts';

/** How many timers the process creates over `ms` of waiting. */
async function timersCreatedOver(ms: number): Promise<number> {
  let created = 0;
  const hook = createHook({
    init(_asyncId, type) {
      if (type === 'Timeout') created += 1;
    },
  }).enable();
  await new Promise((resolve) => setTimeout(resolve, ms));
  hook.disable();
  return created;
}

describe('kafka client', () => {
  let producer: Producer;

  beforeAll(async () => {
    const kafka = createKafka({
      brokers: testEnvironment().kafkaBrokers,
      clientId: 'idle-connection-test',
      logger: createLogger({ name: 'events-test', level: 'silent' }),
    });
    producer = kafka.producer();
    await producer.connect();
  });

  afterAll(async () => {
    await producer.disconnect();
  });

  it('keeps no timer firing on an idle broker connection', async () => {
    // kafkajs 2.2.4 re-armed a 1 ms timer on every connection once it had answered a request:
    // about 1,000 timers a second per connection, in every process, while nothing was sent.
    expect(await timersCreatedOver(1000)).toBeLessThan(20);
  });
});
