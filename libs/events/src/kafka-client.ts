import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import type { Logger } from '@platform/logger';

const levels: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

export function createKafka(options: { brokers: string[]; clientId: string; logger: Logger }): Kafka {
  const logger = options.logger.child({ component: 'kafka' });
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    logLevel: logLevel.WARN,
    retry: { initialRetryTime: 200, retries: 8 },
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...rest } = log;
        logger[levels[level] ?? 'info'](rest, message);
      },
  });
}

/** Topics are created explicitly so that a consumer never subscribes to one that is missing. */
export async function ensureTopics(kafka: Kafka, topics: string[]): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await createMissingTopics(kafka, topics);
      return;
    } catch (error) {
      // A topic created a moment ago (by this call or a service sharing it) may not be known to
      // the broker's metadata yet: UNKNOWN_TOPIC_OR_PARTITION while waiting for its leaders.
      if ((error as { retriable?: unknown }).retriable !== true || attempt >= TOPIC_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

// About 9 s in all: a broker shared by several platforms under load takes seconds to elect leaders.
const TOPIC_ATTEMPTS = 10;

async function createMissingTopics(kafka: Kafka, topics: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      try {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({ topic, numPartitions: 3, replicationFactor: -1 })),
        });
      } catch (error) {
        // Services sharing a topic create it concurrently at start; only its absence is a failure.
        const created = new Set(await admin.listTopics());
        if (!missing.every((topic) => created.has(topic))) throw error;
      }
    }
  } finally {
    await admin.disconnect();
  }
}
