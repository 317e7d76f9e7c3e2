/**
 * Prometheus metrics of the gateway and the services, scraped as Prometheus would: from this
 * machine (loopback, no token needed) and from another address of it (the token needed).
 */
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { createUserWithToken, startTestPlatform, type E2eUser } from './harness.ts';

const METRICS_TOKEN = 'e2e-metrics-token-0002';

let platform: RunningPlatform;
let gateway: ReturnType<typeof request>;
let user: E2eUser;

/** This machine's first address that is not loopback: a connection to it does not come from loopback. */
function externalAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
  if (!address) throw new Error('this test needs a network interface with an IPv4 address other than loopback');
  return address;
}

/** The same server reached through a non-loopback address of this machine. */
const fromElsewhere = (url: string) => request(url.replace(/\/\/(127\.0\.0\.1|localhost)(?=:)/, `//${externalAddress()}`));

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['review'], env: { METRICS_TOKEN } });
  gateway = request(platform.url);
  user = await createUserWithToken(gateway, 'metrics-reader');
});

afterAll(async () => {
  await platform?.stop();
});

describe('the gateway /-/metrics', () => {
  it('serves process metrics and request durations by route table entry, status and owning service to loopback callers', async () => {
    await gateway.get('/api/v4/todos').set(user.headers).expect(200);
    const scraped = await gateway.get('/-/metrics').expect(200);
    expect(scraped.text).toContain('# TYPE process_cpu_seconds_total counter');
    expect(scraped.text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\^\/api\/v4\/\(todos\|user_counts\)\(\/\|\$\)",status="200",service="review"\} [1-9]/,
    );
  });

  it('answers 404 to other callers unless they present the token', async () => {
    const elsewhere = fromElsewhere(platform.url);
    expect((await elsewhere.get('/-/metrics')).status).toBe(404);
    expect((await elsewhere.get('/-/metrics').set('Authorization', 'Bearer wrong-token-of-some-length')).status).toBe(404);
    // Forwarding headers from a caller that is no trusted proxy change nothing.
    expect((await elsewhere.get('/-/metrics').set('X-Forwarded-For', '127.0.0.1')).status).toBe(404);
    const admitted = await elsewhere.get('/-/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(admitted.status).toBe(200);
    expect(admitted.text).toContain('http_request_duration_seconds');
  });
});

describe("a service's /-/metrics, on its own port", () => {
  it('shows the request just made by its route pattern, the gRPC calls it served, and its outbox backlog', async () => {
    await gateway.get(`/api/v4/users/${user.id}`).set(user.headers).expect(200);
    const identityUrl = platform.serviceUrls.identity ?? '';
    const scraped = (await request(identityUrl).get('/-/metrics').expect(200)).text;
    expect(scraped).toContain('# TYPE process_resident_memory_bytes gauge');
    expect(scraped).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/v4\/users\/:id",status="200",service="identity"\} [1-9]/,
    );
    expect(scraped).not.toContain(`route="/api/v4/users/${user.id}"`);
    // The gateway authenticated the token over identity's gRPC.
    expect(scraped).toMatch(/grpc_server_handling_seconds_count\{service="[\w.]+\.IdentityService",method="\w+",code="OK"\} [1-9]/);
    expect(scraped).toMatch(/\noutbox_unpublished_events \d+\n/);
    expect(scraped).toContain('# TYPE background_jobs gauge');
  });

  it('shows the job queue by kind, and refuses other callers without the token', async () => {
    const reviewUrl = platform.serviceUrls.review ?? '';
    const scraped = (await request(reviewUrl).get('/-/metrics').expect(200)).text;
    expect(scraped).toMatch(/background_jobs\{kind="review\.storage_move",state="pending"\} \d+/);
    expect(scraped).toMatch(/background_jobs\{kind="review\.storage_move",state="running"\} \d+/);
    expect(scraped).toMatch(/\noutbox_unpublished_events \d+\n/);
    const elsewhere = fromElsewhere(reviewUrl);
    expect((await elsewhere.get('/-/metrics')).status).toBe(404);
    expect((await elsewhere.get('/-/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`)).status).toBe(200);
  });
});
