/**
 * Kafka down, on a broker of this test's own: writes go on (the outbox keeps their events), a
 * service restarted meanwhile starts and serves without Kafka instead of crash-looping, and once
 * the broker is back every event arrives, exactly once, and the gateway's event feed is live again.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePorts, startKafkaBroker, type KafkaBroker } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';

type TestPlatform = Awaited<ReturnType<typeof startTestPlatform>>;
let platform: TestPlatform;
let broker: KafkaBroker | undefined;
let brokerOptions: { dataDir: string; port: number; controllerPort: number };
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN, 'Content-Type': 'application/json' };

beforeAll(async () => {
  const [port = 0, controllerPort = 0] = await freePorts(2);
  brokerOptions = { dataDir: createWorkDir('outage-kafka'), port, controllerPort };
  broker = await startKafkaBroker(brokerOptions);
  platform = await startTestPlatform({
    services: ['identity', 'audit'],
    kafkaBrokers: broker.brokers,
    restartPolicy: { initialDelayMs: 100, maxDelayMs: 2000, stableAfterMs: 30_000 },
  });
}, 300_000);

afterAll(async () => {
  await platform?.stop();
  await broker?.stop();
  removeWorkDir(brokerOptions?.dataDir);
}, 120_000);

async function call(url: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: asRoot,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function userCreatedEvents(userId: number): Promise<number | undefined> {
  const response = await call(`${platform.url}/api/v4/audit_events?entity_type=User&entity_id=${userId}&per_page=100`);
  if (response.status !== 200) return undefined;
  return (response.body as Array<{ event_name: string }>).filter((event) => event.event_name === 'user_created').length;
}

describe('a Kafka outage', () => {
  it('loses no write and no event, and a service restarted during it starts without Kafka', async () => {
    const audit = platform.processes.audit;
    if (!audit || !broker) throw new Error('no audit process or broker');
    await broker.stop();
    broker = undefined;

    const created: number[] = [];
    const statuses: number[] = [];
    const writer = async (worker: number) => {
      for (let index = 0; index < 6; index += 1) {
        const username = `outage-${worker}-${index}`;
        const user = await call(`${platform.url}/api/v4/users`, {
          method: 'POST',
          body: { username, name: username, email: `${username}@example.com`, password: 'a-long-enough-password' },
        });
        statuses.push(user.status);
        if (user.status === 201) created.push((user.body as { id: number }).id);
      }
    };
    const writes = Promise.all([0, 1, 2].map(writer));
    // A crash while Kafka is away: the restarted audit must start and serve reads instead of crash-looping.
    const killedPid = audit.pid();
    process.kill(killedPid, 'SIGKILL');
    await writes;
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    await waitFor(
      async () => (audit.pid() !== killedPid && (await call(`${platform.url}/api/v4/audit_events?per_page=1`)).status === 200) || undefined,
      {
        what: 'audit serving again while Kafka is down',
        timeoutMs: 120_000,
      },
    );
    const readiness = await call(`${platform.serviceUrls.audit}/-/readiness`);
    expect(readiness.status).toBe(200);

    broker = await startKafkaBroker(brokerOptions);
    for (const id of created) {
      await waitFor(async () => ((await userCreatedEvents(id)) ?? 0) >= 1 || undefined, {
        what: `user ${id}'s audit event`,
        timeoutMs: 180_000,
      });
    }
    for (const id of created) expect(await userCreatedEvents(id)).toBe(1);
    // Restarted once, by the kill; a crash loop would have restarted it again.
    expect(audit.restarts()).toBe(1);
    expect(platform.processes.identity?.restarts()).toBe(0);
    await waitFor(
      async () =>
        ((await call(`${platform.url}/-/readiness`)).body as { authInvalidation: string }).authInvalidation === 'live' || undefined,
      { what: "the gateway's event feed live again", timeoutMs: 120_000 },
    );
  }, 600_000);
});
