/**
 * Webhooks when the platform fails mid-delivery: the hooks service killed (SIGKILL) while a
 * receiver holds the request. The delivery stays pending, and once the service is back and the
 * killed runner's lease ran out, it is sent again with the same event UUID and idempotency key.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

let platform: Awaited<ReturnType<typeof startTestPlatform>>;
let gateway: ReturnType<typeof request>;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** The first request gets no answer: the sender is killed while it waits. */
const unanswered: Array<() => void> = [];
const restarts: string[] = [];
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
      if (received.length === 1) unanswered.push(() => res.writeHead(200).end());
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  platform = await startTestPlatform({
    services: ['identity', 'admin', 'hooks'],
    restartPolicy: { initialDelayMs: 100, maxDelayMs: 2000, stableAfterMs: 30_000 },
    onRestart: (message) => restarts.push(message),
  });
  gateway = request(platform.url);
}, 180_000);

afterAll(async () => {
  for (const answer of unanswered) answer();
  await platform?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

it('sends a delivery again, with the same event UUID and idempotency key, after the hooks service was killed mid-delivery', async () => {
  const hook = await gateway
    .post('/api/v4/hooks')
    .set(asRoot)
    .send({ url: `${receiverUrl}/system` });
  expect(hook.status).toBe(201);
  const user = await gateway
    .post('/api/v4/users')
    .set(asRoot)
    .send({ username: 'hooked-user', name: 'Hooked', email: 'hooked-user@example.com', password: 'a-long-enough-password' });
  expect(user.status).toBe(201);
  const forUser = () => received.filter((entry) => entry.body.username === 'hooked-user');
  await waitFor(async () => (forUser().length === 1 ? true : undefined), { timeoutMs: 60_000, what: 'the first delivery' });

  const hooks = platform.processes.hooks;
  if (!hooks) throw new Error('no hooks process');
  const killedPid = hooks.pid();
  process.kill(killedPid, 'SIGKILL');
  // Sent again once the service is back and the killed runner's job lease (a minute) ran out.
  await waitFor(async () => (forUser().length === 2 ? true : undefined), { timeoutMs: 150_000, what: 'the delivery sent again' });
  expect(hooks.pid()).not.toBe(killedPid);
  expect(restarts.some((message) => message.startsWith('hooks exited (signal SIGKILL)'))).toBe(true);

  const [first, again] = forUser();
  expect(again?.headers['x-gitlab-event-uuid']).toBe(first?.headers['x-gitlab-event-uuid']);
  expect(again?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
  expect(again?.headers['x-gitlab-event']).toBe('System Hook');
  expect(again?.body).toEqual(first?.body);
  expect(again?.body).toMatchObject({ event_name: 'user_create', username: 'hooked-user', user_id: user.body.id });
}, 240_000);
