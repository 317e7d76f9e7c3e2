/**
 * Jest global setup: one real Kafka broker and one real PostgreSQL server for the whole run,
 * handed to the test workers through environment variables.
 */
import { ensureKafkaJars, resolvePostgres, startKafkaBroker, type KafkaBroker, type PostgresServer } from '@platform/devstack';

declare global {
  var platformTestInfrastructure: { broker?: KafkaBroker; postgres: PostgresServer } | undefined;
}

export default async function globalSetup(): Promise<void> {
  if (Number(process.versions.node.split('.')[0]) < 24) {
    throw new Error(`tests need Node 24 or later, this is ${process.version}: run them with \`npm test\``);
  }
  const postgres = await resolvePostgres({ databaseUrl: process.env.DATABASE_URL });
  process.env.TEST_POSTGRES_URL = postgres.url;
  let broker: KafkaBroker | undefined;
  if (process.env.KAFKA_BROKERS) {
    process.env.TEST_KAFKA_BROKERS = process.env.KAFKA_BROKERS;
  } else {
    await ensureKafkaJars();
    broker = await startKafkaBroker();
    process.env.TEST_KAFKA_BROKERS = broker.brokers.join(',');
  }
  globalThis.platformTestInfrastructure = { postgres, ...(broker ? { broker } : {}) };
}
