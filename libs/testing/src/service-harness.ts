/** Starts a service in-process against a fresh database and the jest run's Kafka, for integration tests. */
import request from 'supertest';
import pg from 'pg';
import type { Caller } from '@platform/auth';
import { callerHeader } from './callers.ts';
import { createTestDatabase, TEST_INTERNAL_SECRET, testEnvironment } from './test-environment.ts';

/** What a started service offers a test (`RunningService` of `@platform/service` fits). */
export interface StartedService {
  httpPort: number;
  grpcPort?: number;
  stop(): Promise<void>;
}

/** An outbox row's envelope, as tests look at it. */
export interface OutboxEnvelope {
  id: string;
  type: string;
  aggregateId: string;
  actor: unknown;
  data: Record<string, unknown>;
}

export interface ServiceHarness<Service extends StartedService> {
  service: Service;
  /** Requests to the service's HTTP port, as the gateway would send them. */
  api: ReturnType<typeof request>;
  /** The signed caller header for `caller`. */
  as(caller: Caller): Record<string, string>;
  databaseUrl: string;
  /** Runs SQL straight against the service's database. */
  sql<Row extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  /** The envelopes in the outbox of the given type, oldest first. */
  outboxEvents(type: string): Promise<OutboxEnvelope[]>;
  stop(): Promise<void>;
}

/**
 * `start` receives the environment of a test instance (its own database, the run's Kafka, free
 * ports, the test secret, silent logs, plus `env`) and starts the service from it.
 */
export async function startServiceHarness<Service extends StartedService>(options: {
  label: string;
  env?: Record<string, string>;
  start(env: Record<string, string>): Promise<Service>;
}): Promise<ServiceHarness<Service>> {
  const database = createTestDatabase(options.label);
  const service = await options.start({
    HTTP_PORT: '0',
    GRPC_PORT: '0',
    DATABASE_URL: database.url,
    KAFKA_BROKERS: testEnvironment().kafkaBrokers.join(','),
    INTERNAL_SECRET: TEST_INTERNAL_SECRET,
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const sql = async <Row extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
    (await client.query<Row>(text, values)).rows;

  return {
    service,
    api: request(`http://127.0.0.1:${service.httpPort}`),
    as: (caller) => callerHeader(caller),
    databaseUrl: database.url,
    sql,
    async outboxEvents(type) {
      const rows = await sql<{ envelope: OutboxEnvelope }>("select envelope from outbox where envelope->>'type' = $1 order by id", [type]);
      return rows.map((row) => row.envelope);
    },
    async stop() {
      await client.end();
      await service.stop();
      await database.drop();
    },
  };
}
