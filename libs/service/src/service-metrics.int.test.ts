/**
 * What a service started by the runtime serves at `/-/metrics`: process metrics, its requests'
 * and gRPC calls' durations, its outbox backlog and its job queue, read from real PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig, portFromEnv, serviceConfig } from '@platform/config';
import { callUnary, internalClientOptions, unaryHandler } from '@platform/grpc';
import { jsonTestService } from '@platform/grpc/testing';
import { createLogger } from '@platform/logger';
import { startServiceHarness, TEST_INTERNAL_SECRET, waitFor, type ServiceHarness } from '@platform/testing';
import { defineJob, handleJob } from './jobs/index.ts';
import { startService, type RunningService } from './run-service.ts';

const probeService = jsonTestService<{ ping: [object, object] }>('probe.v1.ProbeService', { ping: 'Ping' });

const workJob = defineJob<Record<string, never>>('probe.work');
const configSchema = serviceConfig({ name: 'probe', httpPort: 0 }).extend({ GRPC_PORT: portFromEnv(0) });

let harness: ServiceHarness<RunningService>;
let releaseJob: () => void = () => undefined;

beforeAll(async () => {
  const jobReleased = new Promise<void>((resolve) => {
    releaseJob = resolve;
  });
  harness = await startServiceHarness({
    label: 'service_metrics',
    env: { KAFKA_GROUP_ID: `service-metrics-${randomUUID()}` },
    start: (env) =>
      startService({
        name: 'probe',
        config: loadConfig(configSchema, env),
        entities: [],
        migrations: [],
        features: () => [
          {
            rpcs: [
              {
                definition: probeService.definition,
                implementation: { ping: unaryHandler(createLogger({ name: 'probe', level: 'silent' }), async () => ({})) },
                scopes: { ping: 'internal' },
              },
            ],
            // A job under way until the test ends, so that the queue has a running one.
            jobs: [handleJob(workJob, () => jobReleased)],
            schedules: [{ name: 'probe.sweep', intervalMs: 3_600_000, run: async () => undefined }],
          },
        ],
      }),
  });
});

afterAll(async () => {
  releaseJob();
  await harness?.stop();
});

describe("a service's /-/metrics", () => {
  it('serves the process metrics and the duration of its requests and gRPC calls', async () => {
    await harness.api.get('/-/health').expect(200);
    const { grpcPort } = harness.service;
    if (grpcPort === undefined) throw new Error('the probe service serves gRPC: it has a port');
    const client = probeService.connect(grpcPort, internalClientOptions({ internalSecret: TEST_INTERNAL_SECRET }));
    try {
      await callUnary(client.ping.bind(client), {});
    } finally {
      client.close();
    }
    const scraped = (await harness.api.get('/-/metrics').expect(200)).text;
    expect(scraped).toContain('# TYPE process_resident_memory_bytes gauge');
    expect(scraped).toContain('http_request_duration_seconds_count{method="GET",route="/-/health",status="200",service="probe"} 1');
    expect(scraped).toContain('grpc_server_handling_seconds_count{service="probe.v1.ProbeService",method="Ping",code="OK"} 1');
  });

  it('counts the unpublished outbox rows and the queued and running jobs by kind, when scraped', async () => {
    const scrape = async () => (await harness.api.get('/-/metrics').expect(200)).text;
    expect(await scrape()).toContain('\noutbox_unpublished_events 0\n');
    expect(await scrape()).toContain('background_jobs{kind="probe.work",state="pending"} 0');

    for (const topic of ['probe.events', 'probe.events']) {
      await harness.sql(`insert into outbox (event_id, topic, key, envelope) values ($1, $2, '1', '{}'::jsonb)`, [randomUUID(), topic]);
    }
    // Due now: the runner takes it up and keeps it running. Due in an hour: it waits.
    await harness.sql(`insert into background_jobs (kind, payload, max_attempts) values ('probe.work', '{}'::jsonb, 1)`);
    await harness.sql(
      `insert into background_jobs (kind, payload, max_attempts, run_at) values ('probe.work', '{}'::jsonb, 1, now() + interval '1 hour')`,
    );
    // A kind this version does not handle (another version's) is counted too.
    await harness.sql(`insert into background_jobs (kind, payload, max_attempts) values ('probe.older', '{}'::jsonb, 1)`);

    const scraped = await waitFor(async () => {
      const text = await scrape();
      return text.includes('background_jobs{kind="probe.work",state="running"} 1') ? text : undefined;
    });
    expect(scraped).toContain('\noutbox_unpublished_events 2\n');
    expect(scraped).toContain('background_jobs{kind="probe.work",state="pending"} 1');
    expect(scraped).toContain('background_jobs{kind="probe.older",state="pending"} 1');
    // A schedule's row is not a job waiting.
    expect(scraped).not.toContain('kind="probe.sweep"');
  });
});
