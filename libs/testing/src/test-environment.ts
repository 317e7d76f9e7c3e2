import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseUrlFor } from '@platform/devstack';

export const TEST_INTERNAL_SECRET = 'test-internal-secret-0123456789';

/** The infrastructure the global setup started, as seen from a test worker. */
export function testEnvironment(): { postgresUrl: string; kafkaBrokers: string[] } {
  const postgresUrl = process.env.TEST_POSTGRES_URL;
  const kafkaBrokers = process.env.TEST_KAFKA_BROKERS;
  if (!postgresUrl || !kafkaBrokers) throw new Error('run tests through jest: its global setup starts PostgreSQL and Kafka');
  return { postgresUrl, kafkaBrokers: kafkaBrokers.split(',') };
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file; the service under test migrates it. */
export function createTestDatabase(label: string): TestDatabase {
  const { postgresUrl } = testEnvironment();
  const name = `test_${label.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  return {
    url: databaseUrlFor(postgresUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: databaseUrlFor(postgresUrl, 'postgres') });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Drops every database whose name starts with `prefix`, e.g. those a platform run created. */
export async function dropDatabases(prefix: string): Promise<void> {
  const { postgresUrl } = testEnvironment();
  const client = new pg.Client({ connectionString: databaseUrlFor(postgresUrl, 'postgres') });
  await client.connect();
  try {
    const found = await client.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
    for (const { datname } of found.rows) await client.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await client.end();
  }
}
