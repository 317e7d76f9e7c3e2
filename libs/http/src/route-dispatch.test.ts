import { describe, expect, it, jest } from '@jest/globals';
import { Router } from 'express';
import { z } from 'zod';
import request from 'supertest';
import { createLogger } from '@platform/logger';
import { callerHeader } from '@platform/testing';
import { createRouter, routesOf, type HttpMethod } from './routes.ts';
import { recordServedRoutes, routePathPattern, routeTable } from './route-dispatch.ts';
import { createServiceApp } from './service-app.ts';

const SECRET = 'route-dispatch-test-secret';
const route = routesOf<{ name: string }>('dispatch-test');

function routerServing(...routes: Array<[HttpMethod, string]>) {
  return createRouter(
    routes.map(([method, path]) =>
      route({
        method,
        path,
        access: 'anonymous',
        scope: method === 'GET' ? 'read_api' : 'api',
        input: z.object({}).passthrough(),
        handle: async ({ deps, input }) => ({ served: deps.name, input }),
      }),
    ),
    { name: routes.map(([method, path]) => `${method} ${path}`).join(', ') },
  );
}

describe('routePathPattern', () => {
  it('matches what express matches: parameters, wildcards, any case, a trailing slash', () => {
    const pattern = routePathPattern('/api/v4/projects/:id/packages/maven/*path/:file_name.pom')!;
    expect(pattern.test('/api/v4/projects/7/packages/maven/org/acme/1.0/acme.pom')).toBe(true);
    expect(pattern.test('/API/V4/Projects/7/packages/maven/org/acme.pom/')).toBe(true);
    expect(pattern.test('/api/v4/projects/7/packages/maven/acme.pom')).toBe(false);
    expect(pattern.test('/api/v4/projects/7/packages/maven/org/acme.jar')).toBe(false);
  });

  it('does not read optional groups', () => {
    expect(routePathPattern('/api/v4/things{/:id}')).toBeUndefined();
  });
});

describe('routeTable', () => {
  const projects = routerServing(['GET', '/api/v4/projects/:id'], ['POST', '/api/v4/projects']);
  const members = routerServing(['GET', '/api/v4/projects/:id/members'], ['GET', '/api/v4/groups/:id/members']);
  const users = routerServing(['GET', '/api/v4/users/:id']);
  const raw = Router();
  const table = routeTable([projects, raw, members, users]);

  it('offers a request only the routers with a route for its method and path, in mounting order', () => {
    expect(table({ method: 'GET', path: '/api/v4/projects/5' })).toEqual([projects, raw]);
    expect(table({ method: 'GET', path: '/api/v4/groups/5/members' })).toEqual([raw, members]);
    expect(table({ method: 'POST', path: '/api/v4/projects' })).toEqual([projects, raw]);
    expect(table({ method: 'DELETE', path: '/api/v4/users/1' })).toEqual([raw]);
    expect(table({ method: 'GET', path: '/api/v4/unknown' })).toEqual([raw]);
  });

  it('serves HEAD with GET routes and offers other methods to every router', () => {
    expect(table({ method: 'HEAD', path: '/api/v4/users/3' })).toEqual([raw, users]);
    expect(table({ method: 'OPTIONS', path: '/api/v4/users/3' })).toEqual([projects, raw, members, users]);
  });
});

describe('a service app', () => {
  const app = (routes: Router[]) =>
    createServiceApp({
      logger: createLogger({ name: 'route-dispatch-test', level: 'silent' }),
      internalSecret: SECRET,
      readinessChecks: {},
      routes,
    });
  const headers = callerHeader({ kind: 'anonymous' }, SECRET);
  /** Express's routers are functions that hand each request to their `handle`. */
  const handleOf = (router: Router) => jest.spyOn(router as unknown as { handle(...args: unknown[]): void }, 'handle');

  it("runs the request's route without walking any router made by createRouter, and answers as before", async () => {
    const projects = routerServing(['GET', '/api/v4/projects/:id']);
    const users = routerServing(['GET', '/api/v4/users/current'], ['GET', '/api/v4/users/:id']);
    const walked = [handleOf(projects), handleOf(users)];
    const service = app([projects, users]);

    const user = await request(service).get('/api/v4/users/3?x=1').set(headers);
    expect(user.status).toBe(200);
    expect(user.body).toEqual({ served: 'GET /api/v4/users/current, GET /api/v4/users/:id', input: { x: '1', id: '3' } });
    // express's matching: any case, a trailing slash, parameters decoded.
    expect((await request(service).get('/API/v4/Users/a%20b/').set(headers)).body.input).toEqual({ id: 'a b' });
    expect((await request(service).head('/api/v4/projects/5').set(headers)).status).toBe(200);
    expect((await request(service).get('/api/v4/projects/5').set(headers)).body).toEqual({
      served: 'GET /api/v4/projects/:id',
      input: { id: '5' },
    });
    expect((await request(service).get('/api/v4/projects/5/nothing').set(headers)).status).toBe(404);
    expect(walked[0]).not.toHaveBeenCalled();
    expect(walked[1]).not.toHaveBeenCalled();
  });

  it('passes a request a route passes on to the next matching route, then router, and walks other routers as express does', async () => {
    const seen: string[] = [];
    const passing = Router();
    passing.get('/api/v4/things/:id', (req, _res, next) => {
      seen.push(`first ${req.params.id}`);
      next();
    });
    passing.get('/api/v4/things/:id', (req, _res, next) => {
      seen.push(`second ${req.params.id}`);
      next('router');
    });
    passing.get('/api/v4/things/:id', () => seen.push('never'));
    recordServedRoutes(passing, [{ method: 'GET', path: '/api/v4/things/:id' }]);
    const raw = Router();
    raw.use((req, _res, next) => {
      seen.push(`raw ${req.path}`);
      next();
    });
    const things = routerServing(['GET', '/api/v4/things/:id']);
    const walkedRaw = handleOf(raw);

    const answer = await request(app([passing, raw, things]))
      .get('/api/v4/things/7')
      .set(headers);
    expect(answer.body).toEqual({ served: 'GET /api/v4/things/:id', input: { id: '7' } });
    expect(seen).toEqual(['first 7', 'second 7', 'raw /api/v4/things/7']);
    expect(walkedRaw).toHaveBeenCalledTimes(1);
  });
});
