import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import { startKafkaBroker, type KafkaBroker } from './kafka-broker.ts';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startKafkaBroker', () => {
  let broker: KafkaBroker | undefined;

  beforeAll(async () => {
    broker = await startKafkaBroker({}); // free ports, temp data dir
  }, 180_000); // first run may also fetch the jars

  afterAll(async () => {
    await broker?.stop(); // no-op if the test already stopped it
  }, 30_000);

  it('creates a topic, produces and consumes via a consumer group, then stops', async () => {
    const b = broker!;
    expect(b.brokers).toEqual([expect.stringMatching(/^127\.0\.0\.1:\d+$/)]);
    const kafka = new Kafka({ brokers: b.brokers, clientId: 'devstack-test', logLevel: logLevel.ERROR });

    const admin = kafka.admin();
    await admin.connect();
    expect(await admin.createTopics({ topics: [{ topic: 'greetings', numPartitions: 1 }], waitForLeaders: true })).toBe(true);
    expect(await admin.listTopics()).toContain('greetings');
    await admin.disconnect();

    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    await producer.send({ topic: 'greetings', messages: [{ key: 'k1', value: 'hello kafka' }] });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: 'devstack-test-group' });
    await consumer.connect();
    await consumer.subscribe({ topics: ['greetings'], fromBeginning: true });
    const received = await new Promise<{ key: string; value: string }>((resolve) => {
      void consumer.run({
        eachMessage: async ({ message }) => resolve({ key: String(message.key), value: String(message.value) }),
      });
    });
    await consumer.disconnect();
    expect(received).toEqual({ key: 'k1', value: 'hello kafka' });

    expect(isAlive(b.pid)).toBe(true);
    await b.stop();
    expect(isAlive(b.pid)).toBe(false);
  }, 60_000);
});
