import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { CALLER_HEADER, verifyCaller, type Caller } from '@platform/auth';
import { createLogger } from '@platform/logger';
import type { IdentityServiceClient } from '@platform/proto/identity/v1';
import { Authenticator } from './authenticator.ts';
import { createGatewayApp } from './gateway-app.ts';
import { createMetrics } from './metrics.ts';
import { routeFor, SERVICES, type ServiceName } from './route-table.ts';
import { UpstreamPool } from './upstreams.ts';

const SECRET = 'gateway-app-test-secret';
const METRICS_TOKEN = 'metrics-token-for-this-test';
const logger = createLogger({ name: 'gateway-app-test', level: 'silent' });

/** A service that answers what it was told: the caller, verified for this very request. */
let service: http.Server;
let serviceUrl: string;

beforeAll(async () => {
  service = http.createServer((req, res) => {
    try {
      const caller = verifyCaller(req.headers[CALLER_HEADER] as string | undefined, SECRET, {
        method: req.method ?? '',
        path: req.url ?? '',
      });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ caller }));
    } catch (error) {
      res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: String(error) }));
    }
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => service?.close(resolve));
});

function gateway(options: { trustedProxies?: string[]; metricsToken?: string; services?: ServiceName[] } = {}) {
  const pool = (name: string) =>
    new UpstreamPool({
      service: name,
      urls: [serviceUrl],
      logger,
      connectTimeoutMs: 1000,
      responseTimeoutMs: 5000,
      failuresToOpen: 5,
      halfOpenAfterMs: 1000,
    });
  return request(
    createGatewayApp({
      logger,
      authenticator: new Authenticator({ client: {} as IdentityServiceClient, ttlMs: 0 }),
      internalSecret: SECRET,
      upstreams: Object.fromEntries((options.services ?? SERVICES).map((name) => [name, pool(name)])),
      metrics: createMetrics(),
      identityChannelState: () => 'READY',
      authInvalidationState: () => 'off',
      readTimeoutMs: 5000,
      trustedProxies: options.trustedProxies ?? [],
      ...(options.metricsToken ? { metricsToken: options.metricsToken } : {}),
    }),
  );
}

async function forwardedCaller(test: request.Test): Promise<Caller> {
  const response = await test;
  expect(response.status).toBe(200);
  return (response.body as { caller: Caller }).caller;
}

describe('the client address the gateway signs', () => {
  it('ignores X-Forwarded-For from clients when no proxy is trusted', async () => {
    const caller = await forwardedCaller(gateway().get('/api/v4/users?username=x').set('X-Forwarded-For', '6.6.6.6'));
    expect(caller.ip).toBe('127.0.0.1');
  });

  it('believes X-Forwarded-For from a configured proxy', async () => {
    const caller = await forwardedCaller(
      gateway({ trustedProxies: ['loopback'] })
        .get('/api/v4/users?username=x')
        .set('X-Forwarded-For', '203.0.113.9'),
    );
    expect(caller.ip).toBe('203.0.113.9');
  });

  it('is signed for the method and path of the request it travels with', async () => {
    // The stand-in service verifies the header against its own method and path.
    expect((await gateway().delete('/api/v4/users/5/identities/x')).status).toBe(200);
  });
});

describe('/-/metrics', () => {
  it('is served to loopback callers without a token', async () => {
    const response = await gateway().get('/-/metrics');
    expect(response.status).toBe(200);
    expect(response.text).toContain('process_cpu_seconds_total');
  });

  it('is not served to other callers without the configured token', async () => {
    // Behind a trusted proxy the client is the forwarded address, not the proxy's loopback socket.
    const proxied = gateway({ trustedProxies: ['loopback'] });
    expect((await proxied.get('/-/metrics').set('X-Forwarded-For', '203.0.113.9')).status).toBe(404);
    expect(
      (await proxied.get('/-/metrics').set('X-Forwarded-For', '203.0.113.9').set('Authorization', `Bearer ${METRICS_TOKEN}`)).status,
    ).toBe(404);
    const guarded = gateway({ trustedProxies: ['loopback'], metricsToken: METRICS_TOKEN });
    expect((await guarded.get('/-/metrics').set('X-Forwarded-For', '203.0.113.9')).status).toBe(404);
    expect(
      (await guarded.get('/-/metrics').set('X-Forwarded-For', '203.0.113.9').set('Authorization', 'Bearer wrong-token-of-some-length'))
        .status,
    ).toBe(404);
  });

  it('is served to other callers presenting the token', async () => {
    const response = await gateway({ trustedProxies: ['loopback'], metricsToken: METRICS_TOKEN })
      .get('/-/metrics')
      .set('X-Forwarded-For', '203.0.113.9')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.text).toContain('process_cpu_seconds_total');
  });

  it('times proxied requests by route table entry, status and owning service', async () => {
    const app = gateway({ services: ['identity'] });
    await app.get('/api/v4/users?username=x').expect(200);
    await app.get('/api/v4/audit_events').expect(503);
    await app.get('/api/v4/nothing-here').expect(404);
    const scraped = (await app.get('/-/metrics').expect(200)).text;
    // The label is the matching route table entry's pattern, as written there.
    const usersRoute = routeFor('/api/v4/user')?.pattern.source.replaceAll('\\/', '/');
    expect(usersRoute).toMatch(/^\^\/api\/v4\/\(user\|users\|/);
    expect(scraped).toContain(`http_request_duration_seconds_count{method="GET",route="${usersRoute}",status="200",service="identity"} 1`);
    expect(scraped).toContain(
      'http_request_duration_seconds_count{method="GET",route="^/api/v4/audit_events(/|$)",status="503",service="audit"} 1',
    );
    expect(scraped).toContain('http_request_duration_seconds_count{method="GET",route="unmatched",status="404",service="gateway"} 1');
  });
});

describe('a platform without some services', () => {
  it("answers GitLab's 503 for their paths and reports only the services it proxies to", async () => {
    const partial = gateway({ services: ['identity'] });
    const unproxied = await partial.get('/api/v4/audit_events');
    expect(unproxied.status).toBe(503);
    expect(unproxied.body).toEqual({ message: '503 Service Unavailable' });
    expect((await partial.get('/api/v4/users?username=x')).status).toBe(200);
    const readiness = await partial.get('/-/readiness');
    expect(Object.keys(readiness.body.services as object)).toEqual(['identity']);
    expect(Object.keys(readiness.body.circuits as object)).toEqual(['identity']);
  });
});

describe('the query string', () => {
  it('routes by the parameters of the query alone, not by a fragment', async () => {
    const alertsOnly = createGatewayApp({
      logger,
      authenticator: new Authenticator({ client: {} as IdentityServiceClient, ttlMs: 0 }),
      internalSecret: SECRET,
      upstreams: {
        alerts: new UpstreamPool({
          service: 'alerts',
          urls: [serviceUrl],
          logger,
          connectTimeoutMs: 1000,
          responseTimeoutMs: 5000,
          failuresToOpen: 5,
          halfOpenAfterMs: 1000,
        }),
      },
      metrics: createMetrics(),
      identityChannelState: () => 'READY',
      authInvalidationState: () => 'off',
      readTimeoutMs: 5000,
      trustedProxies: [],
    });
    const server = alertsOnly.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    // Raw targets: clients strip fragments, but a request line may still carry one.
    const statusOf = (target: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        const sent = http.get({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', path: target }, (response) => {
          response.resume();
          resolve(response.statusCode);
        });
        sent.once('error', reject);
      });
    try {
      expect(await statusOf('/api/v4/projects/7/issues?state=opened&issue_type=incident')).toBe(200);
      // Issues of other types are review's, which this platform does not proxy to.
      expect(await statusOf('/api/v4/projects/7/issues?state=opened')).toBe(503);
      expect(await statusOf('/api/v4/projects/7/issues?state=opened#&issue_type=incident')).toBe(503);
      expect(await statusOf('/api/v4/projects/7/issues#?issue_type=incident')).toBe(503);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('/api/docs', () => {
  it('serves Swagger UI and its files from where the page links them', async () => {
    const page = await gateway().get('/api/docs').expect(200);
    expect(page.type).toBe('text/html');
    expect(page.text).toContain('/api/docs/assets/swagger-ui-bundle.js');
    const styles = await gateway().get('/api/docs/assets/swagger-ui.css').expect(200);
    expect(styles.type).toBe('text/css');
    // Anything else under the API goes to the services.
    expect((await gateway({ services: ['identity'] }).get('/api/docsy')).status).toBe(404);
  });
});
