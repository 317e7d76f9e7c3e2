import { describe, expect, it, jest } from '@jest/globals';
import express from 'express';
import qs from 'qs';
import request from 'supertest';
import { anonymousCaller } from '@platform/auth';
import { createLogger } from '@platform/logger';
import { callerHeader } from '@platform/testing';
import { createMetricsRegistry } from './metrics.ts';
import { createServiceApp } from './service-app.ts';
import { createRouter, routesOf } from './routes.ts';
import { z } from 'zod';

const SECRET = 'service-app-test-secret';

/** Routes of no route table: a list under /api and a path outside it. */
function thingsRouter() {
  const router = express.Router();
  router.get('/api/v4/things', (_req, res) => {
    res.json([{ id: 1 }]);
  });
  router.get('/other', (_req, res) => {
    res.json({ other: true });
  });
  return router;
}

function service() {
  const registry = createMetricsRegistry();
  const app = createServiceApp({
    logger: createLogger({ name: 'test', level: 'silent' }),
    internalSecret: SECRET,
    readinessChecks: {},
    routes: [thingsRouter()],
    metrics: { registry, service: 'test' },
  });
  return { app, registry };
}

describe('the service shell', () => {
  it("serves what its routes serve without express's app, which answers only 404s and errors", async () => {
    // Spied before the app is made: express copies `handle` onto each app it makes; it is undeclared in express's types.
    const enteredExpress = jest.spyOn(express.application as unknown as { handle: (...args: unknown[]) => void }, 'handle');
    try {
      const { app } = service();
      const signed = (path: string) => request(app).get(path).set(callerHeader(anonymousCaller(), SECRET));
      expect((await signed('/api/v4/things')).body).toEqual([{ id: 1 }]);
      expect((await request(app).get('/-/health')).body).toEqual({ status: 'ok' });
      expect(enteredExpress).not.toHaveBeenCalled();
      expect((await signed('/api/v4/nothing')).body).toEqual({ error: '404 Not Found' });
      expect((await request(app).get('/api/v4/things')).body).toEqual({ message: '401 Unauthorized' });
      expect(enteredExpress).toHaveBeenCalledTimes(2);
    } finally {
      enteredExpress.mockRestore();
    }
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
    const parse = jest.spyOn(qs, 'parse');
    try {
      const answer = await request(app).get('/api/v4/echo?per_page=20').set(callerHeader(anonymousCaller(), SECRET));
      expect(answer.body).toEqual({ per_page: 20 });
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('offers a request to the streaming routes only when their paths can match, after the caller check, before the other routes', async () => {
    const streaming = express.Router();
    streaming.get(/^\/(.+)\.git\/info\/refs$/, (req, res) => {
      res.json({ repository: req.params[0] });
    });
    // A streaming route that passes the request on: the routes after it still serve it.
    streaming.get('/api/v4/things', (_req, _res, next) => {
      next();
    });
    const walked = jest.spyOn(streaming as unknown as { handle(...args: unknown[]): void }, 'handle');
    const app = createServiceApp({
      logger: createLogger({ name: 'test', level: 'silent' }),
      internalSecret: SECRET,
      readinessChecks: {},
      routes: [thingsRouter()],
      streamingRoutes: [streaming],
    });
    const signed = (path: string) => request(app).get(path).set(callerHeader(anonymousCaller(), SECRET));
    expect((await signed('/group/project.git/info/refs')).body).toEqual({ repository: 'group/project' });
    expect((await request(app).get('/group/project.git/info/refs')).status).toBe(401);
    expect((await signed('/api/v4/things')).body).toEqual([{ id: 1 }]);
    expect(walked).toHaveBeenCalledTimes(2);
    expect((await signed('/other')).body).toEqual({ other: true });
    expect((await signed('/api/v4/nothing')).status).toBe(404);
    // A service with streaming routes asks every caller, on any path.
    expect((await request(app).get('/other')).status).toBe(401);
    expect(walked).toHaveBeenCalledTimes(2);
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
