/** Starts identity in-process against a fresh database and the jest-run Kafka, for integration tests. */
import request from 'supertest';
import pg from 'pg';
import { createChannelCredentials } from '@platform/grpc';
import { createLogger } from '@platform/logger';
import { IdentityServiceClient } from '@platform/proto/identity/v1';
import { adminCaller, callerHeader, createTestDatabase, TEST_INTERNAL_SECRET, testEnvironment, type TestDatabase } from '@platform/testing';
import { readConfig, type IdentityConfig } from '../config.ts';
import { startIdentity, type RunningIdentity } from '../main.ts';

export const TEST_ROOT_TOKEN = 'glpat-integration-root-token-0001';
export const TEST_EXTERNAL_URL = 'http://platform.test';

/** Identity's configuration for a test: its own database, the run's Kafka, free ports, quiet logs. */
export function identityTestConfig(databaseUrl: string): IdentityConfig {
  return readConfig({
    HTTP_PORT: '0',
    GRPC_PORT: '0',
    DATABASE_URL: databaseUrl,
    KAFKA_BROKERS: testEnvironment().kafkaBrokers.join(','),
    INTERNAL_SECRET: TEST_INTERNAL_SECRET,
    EXTERNAL_URL: TEST_EXTERNAL_URL,
    ROOT_TOKEN: TEST_ROOT_TOKEN,
    LOG_LEVEL: 'silent',
  });
}

export interface IdentityHarness {
  api: ReturnType<typeof request>;
  grpc: IdentityServiceClient;
  /** Runs SQL straight against the service's database. */
  sql<Row extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  identity: RunningIdentity;
  /** Creates a user through the API and answers its administrator view. */
  createUser(username: string, extra?: Record<string, unknown>): Promise<{ id: number; username: string } & Record<string, unknown>>;
  /** The envelopes in the outbox of the given type, oldest first. */
  outboxEvents(type: string): Promise<Array<{ type: string; aggregateId: string; actor: unknown; data: Record<string, unknown> }>>;
  stop(): Promise<void>;
}

export async function startIdentityHarness(label: string): Promise<IdentityHarness> {
  const database: TestDatabase = createTestDatabase(label);
  const identity: RunningIdentity = await startIdentity(
    identityTestConfig(database.url),
    createLogger({ name: `${label}-test`, level: 'silent' }),
  );
  const api = request(`http://127.0.0.1:${identity.httpPort}`);
  const grpc = new IdentityServiceClient(`127.0.0.1:${identity.grpcPort}`, createChannelCredentials());
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();

  const sql = async <Row extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
    (await client.query<Row>(text, values)).rows;

  return {
    identity,
    api,
    grpc,
    sql,
    async createUser(username, extra = {}) {
      const response = await api
        .post('/api/v4/users')
        .set(callerHeader(adminCaller()))
        .send({ email: `${username}@example.com`, name: `User ${username}`, username, password: 'a-long-enough-password', ...extra });
      if (response.status !== 201) throw new Error(`creating ${username}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body;
    },
    async outboxEvents(type) {
      const rows = await sql<{ envelope: { type: string; aggregateId: string; actor: unknown; data: Record<string, unknown> } }>(
        "select envelope from outbox where envelope->>'type' = $1 order by id",
        [type],
      );
      return rows.map((row) => row.envelope);
    },
    async stop() {
      grpc.close();
      await client.end();
      await identity.stop();
      await database.drop();
    },
  };
}
