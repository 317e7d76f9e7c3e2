/**
 * One trace from the client through the gateway, identity's gRPC and HTTP APIs, the outbox and
 * Kafka to the audit service's consumer, with every process exporting its spans to the console.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { RunningPlatform } from '@platform/devstack';
import { waitFor } from '@platform/testing';
import { E2E_ROOT_TOKEN, startTestPlatform } from './harness.ts';

let platform: RunningPlatform;
const printed = new Map<string, string[]>();

beforeAll(async () => {
  platform = await startTestPlatform({
    services: ['identity', 'audit'],
    env: { OTEL_TRACES_EXPORTER: 'console' },
    onLine: (service, line) => printed.set(service, [...(printed.get(service) ?? []), line]),
  });
}, 180_000);

afterAll(async () => {
  await platform?.stop();
});

/** The names of the spans a process exported for `traceId` (the console exporter prints one object per span). */
function spansOf(service: string, traceId: string): string[] {
  const names: string[] = [];
  let inTrace = false;
  for (const line of printed.get(service) ?? []) {
    if (/^\{/.test(line)) inTrace = false;
    if (line.includes(`traceId: '${traceId}'`)) inTrace = true;
    const name = /^ {2}name: '(.+)',$/.exec(line)?.[1];
    if (inTrace && name) names.push(name);
  }
  return names;
}

describe('tracing', () => {
  it('follows a request from the gateway to the audit consumer', async () => {
    const traceId = randomBytes(16).toString('hex');
    const response = await request(platform.url)
      .post('/api/v4/users')
      .set('PRIVATE-TOKEN', E2E_ROOT_TOKEN)
      .set('traceparent', `00-${traceId}-${randomBytes(8).toString('hex')}-01`)
      .send({ email: 'traced@example.com', name: 'Traced', username: 'e2e-traced', password: 'a-long-enough-password' });
    expect(response.status).toBe(201);
    const auditSpans = await waitFor(
      async () => {
        const names = spansOf('audit', traceId);
        return names.some((name) => name === 'process identity.user.created') ? names : undefined;
      },
      { what: "the audit consumer's span in the request's trace" },
    );
    // The consumer's own database work joins the trace too.
    expect(auditSpans).toEqual(expect.arrayContaining([expect.stringMatching(/^pg\.query:INSERT/)]));
    // Each process prints a span once it ends, on its own time (the gateway's request span after the
    // response is flushed): each is waited for in turn.
    const spansIncluding = (service: string, expected: unknown[]) =>
      waitFor(
        async () => {
          const names = spansOf(service, traceId);
          return expect.arrayContaining(expected).asymmetricMatch(names) ? names : undefined;
        },
        { what: `${service}'s spans in the request's trace` },
      );
    // The gateway: the incoming request, identity's gRPC Authenticate, the proxied request.
    await spansIncluding('gateway', ['POST', 'grpc.platform.identity.v1.IdentityService/Authenticate']);
    // Identity: the gRPC call, the HTTP request, and the transaction that wrote the user and its event.
    await spansIncluding('identity', [
      'grpc.platform.identity.v1.IdentityService/Authenticate',
      'POST /api/v4/users',
      expect.stringMatching(/^pg\.query:INSERT/),
      expect.stringMatching(/^pg\.query:COMMIT/),
    ]);
  });
});
