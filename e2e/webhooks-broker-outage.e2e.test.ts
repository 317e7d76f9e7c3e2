/**
 * Webhooks across a Kafka outage, on a broker of this test's own: an event recorded while the
 * broker is down waits in its producer's outbox, and once the broker is back the hooks service
 * consumes it and the system hook gets it, once.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePorts, startKafkaBroker, type KafkaBroker } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { createWorkDir, E2E_ROOT_TOKEN, removeWorkDir, startTestPlatform } from './harness.ts';

let platform: Awaited<ReturnType<typeof startTestPlatform>>;
let broker: KafkaBroker | undefined;
let brokerOptions: { dataDir: string; port: number; controllerPort: number };
let receiver: Server;
let receiverUrl: string;
const received: Array<Record<string, unknown>> = [];
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN, 'Content-Type': 'application/json' };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const [port = 0, controllerPort = 0] = await freePorts(2);
  brokerOptions = { dataDir: createWorkDir('hooks-outage-kafka'), port, controllerPort };
  broker = await startKafkaBroker(brokerOptions);
  platform = await startTestPlatform({
    services: ['identity', 'admin', 'hooks'],
    kafkaBrokers: broker.brokers,
    restartPolicy: { initialDelayMs: 100, maxDelayMs: 2000, stableAfterMs: 30_000 },
  });
}, 300_000);

afterAll(async () => {
  await platform?.stop();
  await broker?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
  removeWorkDir(brokerOptions?.dataDir);
}, 120_000);

async function call(path: string, body: unknown) {
  const response = await fetch(`${platform.url}${path}`, {
    method: 'POST',
    headers: asRoot,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

it('delivers an event recorded while the broker was down once it is back', async () => {
  expect((await call('/api/v4/hooks', { url: `${receiverUrl}/system` })).status).toBe(201);
  await broker?.stop();
  broker = undefined;

  const user = await call('/api/v4/users', {
    username: 'outage-hooked',
    name: 'Outage',
    email: 'outage-hooked@example.com',
    password: 'a-long-enough-password',
  });
  expect(user.status).toBe(201);
  const forUser = () => received.filter((body) => body.username === 'outage-hooked');
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(forUser()).toEqual([]);

  broker = await startKafkaBroker(brokerOptions);
  await waitFor(async () => (forUser().length > 0 ? true : undefined), { what: 'the delivery after the outage', timeoutMs: 180_000 });
  // Once: nothing arrives twice after a while.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(forUser()).toHaveLength(1);
  expect(forUser()[0]).toMatchObject({ event_name: 'user_create', user_id: user.body.id });
}, 400_000);
