import { describe, expect, it, jest } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { anonymousCaller } from '@platform/auth';
import { createLogger } from '@platform/logger';
import { callerHeader } from '@platform/testing';
import { createMetricsRegistry } from './metrics.ts';
import { createServiceApp } from './service-app.ts';
import { createRouter, routesOf } from './routes.ts';
import { parseQueryString } from './request-body.ts';
import { z } from 'zod';

const SECRET = 'service-app-test-secret';

function service() {
  const router = express.Router();
  router.get('/api/v4/things', (_req, res) => {
    res.json([{ id: 1 }]);
  });
  router.get('/other', (_req, res) => {
    res.json({ other: true });
  });
  const registry = createMetricsRegistry();
  const app = createServiceApp({
    logger: createLogger({ name: 'test', level: 'silent' }),
    internalSecret: SECRET,
    readinessChecks: {},
    routes: [router],
    metrics: { registry, service: 'test' },
  });
  return { app, registry };
}

describe('the service shell', () => {
  it('runs its fixed steps and the routes in three express layers', () => {
    const { app } = service();
    // The first steps, the `/-` routes, the API's steps with the routes, then the 404, the retry and the error mapping.
    expect((app as unknown as { router: { stack: unknown[] } }).router.stack).toHaveLength(6);
  });

  it("parses a request's query string once, for the parameters' check and the route", async () => {
    const route = routesOf<object>('service-app-test');
    const echo = route({
      method: 'GET',
      path: '/api/v4/echo',
      access: 'anonymous',
      scope: 'read_api',
      input: z.object({ per_page: z.coerce.number() }),
      handle: async ({ input }) => input,
    });
    const app = createServiceApp({
      logger: createLogger({ name: 'test', level: 'silent' }),
      internalSecret: SECRET,
      readinessChecks: {},
      routes: [createRouter([echo], {})],
    });
    const parse = jest.fn(parseQueryString());
    app.set('query parser fn', parse);
    const answer = await request(app).get('/api/v4/echo?per_page=20').set(callerHeader(anonymousCaller(), SECRET));
    expect(answer.body).toEqual({ per_page: 20 });
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('serves the health routes under `/-` to GET and HEAD, as express matches a path, after the URL check', async () => {
    const { app } = service();
    expect((await request(app).get('/-/health')).body).toEqual({ status: 'ok' });
    expect((await request(app).head('/-/HEALTH/')).status).toBe(200);
    expect((await request(app).get('/-/readiness')).body).toEqual({ status: 'ok', checks: {} });
    expect((await request(app).options('/-/health')).status).toBe(404);
    expect((await request(app).post('/-/health')).status).toBe(404);
    expect((await request(app).get('/-/health?x=%ZZ')).status).toBe(400);
    expect((await request(app).get('/-/unknown')).status).toBe(404);
  });

  it('labels a health request by its route', async () => {
    const { app, registry } = service();
    await request(app).get('/-/health');
    const metrics = await registry.getSingleMetricAsString('http_request_duration_seconds');
    expect(metrics).toContain('route="/-/health"');
  });

  it('asks a signed caller on every path under /api, in any case, and on no other', async () => {
    const { app } = service();
    expect((await request(app).get('/api/v4/things')).status).toBe(401);
    expect((await request(app).get('/API/v4/things')).status).toBe(401);
    expect((await request(app).get('/api')).status).toBe(401);
    const signed = await request(app).get('/api/v4/things').set(callerHeader(anonymousCaller(), SECRET));
    expect(signed.status).toBe(200);
    expect(signed.headers['content-type']).toBe('application/json');
    expect((await request(app).get('/other')).body).toEqual({ other: true });
    expect((await request(app).get('/apiary')).status).toBe(404);
  });

  it('refuses an undecodable URL and malformed parameters before the routes', async () => {
    const { app } = service();
    const signed = (path: string) => request(app).get(path).set(callerHeader(anonymousCaller(), SECRET));
    expect((await signed('/api/v4/things?name=%ZZ')).status).toBe(400);
    expect((await signed('/api/v4/things?name=a%00b')).status).toBe(400);
    expect((await request(app).get('/other?name=%00')).status).toBe(400);
  });
});
