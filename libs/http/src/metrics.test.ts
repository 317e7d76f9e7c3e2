import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import express from 'express';
import request from 'supertest';
import { createMetricsRegistry, describeRequest, isLoopback, mayReadMetrics, metricsEndpoint, requestTimer } from './metrics.ts';

const TOKEN = 'metrics-token-for-this-test';

describe('isLoopback', () => {
  it('holds 127.0.0.0/8, ::1 and IPv4 loopback written as IPv4-mapped IPv6', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '::FFFF:127.9.9.9']) {
      expect([address, isLoopback(address)]).toEqual([address, true]);
    }
  });

  it('holds nothing else', () => {
    for (const address of [undefined, '', '10.0.0.1', '128.0.0.1', '::ffff:10.0.0.1', '::2', 'fe80::1', '127.0.0.1.example.com']) {
      expect([address, isLoopback(address)]).toEqual([address, false]);
    }
  });
});

describe('mayReadMetrics', () => {
  it('admits loopback callers without a token, configured or not', () => {
    expect(mayReadMetrics({ clientAddress: '127.0.0.1', authorization: undefined, token: undefined })).toBe(true);
    expect(mayReadMetrics({ clientAddress: '::1', authorization: undefined, token: TOKEN })).toBe(true);
  });

  it('admits other callers only with the configured token as a bearer token', () => {
    expect(mayReadMetrics({ clientAddress: '10.0.0.5', authorization: `Bearer ${TOKEN}`, token: TOKEN })).toBe(true);
    expect(mayReadMetrics({ clientAddress: '10.0.0.5', authorization: `bearer ${TOKEN}`, token: TOKEN })).toBe(true);
    expect(mayReadMetrics({ clientAddress: '10.0.0.5', authorization: undefined, token: TOKEN })).toBe(false);
    expect(mayReadMetrics({ clientAddress: '10.0.0.5', authorization: 'Bearer wrong-token-of-some-length', token: TOKEN })).toBe(false);
    expect(mayReadMetrics({ clientAddress: '10.0.0.5', authorization: TOKEN, token: TOKEN })).toBe(false);
    expect(mayReadMetrics({ clientAddress: undefined, authorization: undefined, token: TOKEN })).toBe(false);
  });

  it('admits no other caller when no token is configured', () => {
    expect(mayReadMetrics({ clientAddress: '10.0.0.5', authorization: 'Bearer undefined', token: undefined })).toBe(false);
    expect(mayReadMetrics({ clientAddress: '10.0.0.5', authorization: 'Bearer ', token: undefined })).toBe(false);
  });
});

/** An app timing its requests, with a route at the top, one in a router mounted under a prefix, and the endpoint. */
function timedApp(options: { trustProxy?: boolean; token?: string } = {}) {
  const registry = createMetricsRegistry();
  const app = express();
  app.set('trust proxy', options.trustProxy ? 'loopback' : false);
  const timeRequest = requestTimer(registry, { service: 'review' });
  app.use((req, res, next) => {
    timeRequest(req, res);
    next();
  });
  app.get('/-/metrics', metricsEndpoint(registry, { token: options.token }));
  app.get('/api/v4/projects/:id/labels', (_req, res) => {
    res.json([]);
  });
  app.get('/api/v4/projects/:id/labels/:label_id', (_req, res) => {
    res.status(404).json({ message: '404 Label Not Found' });
  });
  const nested = express.Router();
  nested.get('/:name/info/refs', (_req, res) => {
    res.send('refs');
  });
  app.use('/git', nested);
  app.get('/proxied/*rest', (_req, res) => {
    describeRequest(res, { route: '/api/v4/users(/|$)', service: 'identity' });
    res.json({});
  });
  return request(app);
}

describe('requestTimer', () => {
  it('labels each request with its method, route pattern, status and service, never the URL', async () => {
    const app = timedApp();
    await app.get('/api/v4/projects/42/labels').expect(200);
    await app.get('/api/v4/projects/43/labels').expect(200);
    await app.get('/api/v4/projects/42/labels/7').expect(404);
    await app.get('/git/group%2Fproject.git/info/refs').expect(200);
    await app.get('/nowhere/1234').expect(404);
    await app.get('/proxied/users/5').expect(200);
    const scraped = (await app.get('/-/metrics').expect(200)).text;

    expect(scraped).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/v4/projects/:id/labels",status="200",service="review"} 2',
    );
    expect(scraped).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/v4/projects/:id/labels/:label_id",status="404",service="review"} 1',
    );
    expect(scraped).toContain(
      'http_request_duration_seconds_count{method="GET",route="/git/:name/info/refs",status="200",service="review"} 1',
    );
    expect(scraped).toContain('http_request_duration_seconds_count{method="GET",route="unmatched",status="404",service="review"} 1');
    expect(scraped).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/v4/users(/|$)",status="200",service="identity"} 1',
    );
    expect(scraped).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/v4\/projects\/:id\/labels",status="200",service="review"\} \d/,
    );
    expect(scraped).not.toMatch(/route="[^"]*(42|1234|group)/);
  });

  it("times requests express never sees, on Node's request and response", async () => {
    const registry = createMetricsRegistry();
    const timeRequest = requestTimer(registry, { service: 'gateway' });
    const server = createServer((req, res) => {
      timeRequest(req, res);
      if (req.url === '/described') describeRequest(res, { route: '/api/v4/users(/|$)', service: 'identity' });
      res.end();
    });
    await request(server).get('/described').expect(200);
    await request(server).post('/plain').expect(200);
    const scraped = await registry.metrics();
    expect(scraped).toContain(
      'http_request_duration_seconds_count{method="GET",route="/api/v4/users(/|$)",status="200",service="identity"} 1',
    );
    expect(scraped).toContain('http_request_duration_seconds_count{method="POST",route="unmatched",status="200",service="gateway"} 1');
  });

  it('serves the process metrics beside them', async () => {
    const scraped = (await timedApp().get('/-/metrics').expect(200)).text;
    expect(scraped).toContain('# TYPE process_cpu_seconds_total counter');
    expect(scraped).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(scraped).toContain('# TYPE http_request_duration_seconds histogram');
  });
});

describe('metricsEndpoint', () => {
  it('takes the client address from a trusted proxy rather than the proxy itself on loopback', async () => {
    const behindProxy = timedApp({ trustProxy: true });
    expect((await behindProxy.get('/-/metrics').set('X-Forwarded-For', '203.0.113.9')).status).toBe(404);
    expect((await behindProxy.get('/-/metrics').set('X-Forwarded-For', '127.0.0.1')).status).toBe(200);
    const guarded = timedApp({ trustProxy: true, token: TOKEN });
    const refused = await guarded.get('/-/metrics').set('X-Forwarded-For', '203.0.113.9');
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ error: '404 Not Found' });
    expect(
      (await guarded.get('/-/metrics').set('X-Forwarded-For', '203.0.113.9').set('Authorization', 'Bearer wrong-token-of-length')).status,
    ).toBe(404);
    const admitted = await guarded.get('/-/metrics').set('X-Forwarded-For', '203.0.113.9').set('Authorization', `Bearer ${TOKEN}`);
    expect(admitted.status).toBe(200);
    expect(admitted.text).toContain('process_cpu_seconds_total');
  });

  it('believes no forwarded address when no proxy is trusted: the socket is loopback', async () => {
    expect((await timedApp().get('/-/metrics').set('X-Forwarded-For', '203.0.113.9')).status).toBe(200);
  });
});
