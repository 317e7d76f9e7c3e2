/**
 * A service frozen (SIGSTOP) for longer than a signed caller's default validity, with the
 * gateway's timeouts as deployed: reads end within the read timeout with 504, a token identity
 * never confirmed ends within the authentication deadline, and once the service resumes, nothing
 * a valid token sent is refused with 401 because it waited inside the platform.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, createUserWithToken, startTestPlatform } from './harness.ts';
import request from 'supertest';

type TestPlatform = Awaited<ReturnType<typeof startTestPlatform>>;
let platform: TestPlatform;
const asRoot = { 'PRIVATE-TOKEN': E2E_ROOT_TOKEN, 'Content-Type': 'application/json' };
/** The gateway's default read timeout, and room for a loaded machine. */
const READ_TIMEOUT_MS = 5000;
const MARGIN_MS = 2500;
/** Longer than a signed caller's default validity (10 s) and the clock skew allowed past it (2 s). */
const FROZEN_MS = 15_000;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['identity'] });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

async function timed(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const started = Date.now();
  const response = await fetch(`${platform.url}${path}`, {
    method: init.method ?? 'GET',
    headers: init.headers ?? asRoot,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined, tookMs: Date.now() - started };
}

describe('identity frozen (SIGSTOP) past the signed caller default validity', () => {
  it('answers reads with 504 within the read timeout, and never refuses a valid token with 401', async () => {
    // Created before the freeze, never used: the gateway must ask identity to authenticate it.
    const unseen = await createUserWithToken(request(platform.url), 'frozen-unseen');
    expect((await timed('/api/v4/user')).status).toBe(200);
    const identity = platform.processes.identity;
    if (!identity) throw new Error('no identity process');
    const frozenAt = Date.now();
    process.kill(identity.pid(), 'SIGSTOP');
    let write: Promise<Awaited<ReturnType<typeof timed>>>;
    try {
      // A write waits for the response timeout (30 s): it is taken up when identity resumes.
      write = timed('/api/v4/groups', { method: 'POST', body: { name: 'frozen-write', path: 'frozen-write' } });
      const reads = await Promise.all(Array.from({ length: 3 }, () => timed('/api/v4/user')));
      for (const read of reads) {
        expect(read).toMatchObject({ status: 504, body: { message: '504 Gateway Timeout' } });
        expect(read.tookMs).toBeLessThan(READ_TIMEOUT_MS + MARGIN_MS);
      }
      const unauthenticated = await timed('/api/v4/user', { headers: unseen.headers });
      expect(unauthenticated).toMatchObject({ status: 503, body: { message: '503 Service Unavailable' } });
      expect(unauthenticated.tookMs).toBeLessThan(2000 + MARGIN_MS);
      await new Promise((resolve) => setTimeout(resolve, FROZEN_MS - (Date.now() - frozenAt)));
    } finally {
      process.kill(identity.pid(), 'SIGCONT');
    }
    expect((await write).status).toBe(201);
    const statuses: number[] = [];
    await waitFor(
      async () => {
        const read = await timed('/api/v4/user');
        statuses.push(read.status);
        return read.status === 200 ? true : undefined;
      },
      { what: 'identity answering again', intervalMs: 50 },
    );
    expect(statuses).not.toContain(401);
  });
});
