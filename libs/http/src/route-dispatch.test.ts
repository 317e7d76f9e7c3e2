import { describe, expect, it, jest } from '@jest/globals';
import { Router } from 'express';
import { z } from 'zod';
import request from 'supertest';
import { createLogger } from '@platform/logger';
import { callerHeader } from '@platform/testing';
import { createRouter, routesOf, type HttpMethod } from './routes.ts';
import { routePathPattern, routeTable } from './route-dispatch.ts';
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
  it("offers a request to its route's router only, and answers as before", async () => {
    const projects = routerServing(['GET', '/api/v4/projects/:id']);
    const users = routerServing(['GET', '/api/v4/users/:id']);
    // Express's routers are functions that hand each request to their `handle`.
    const offeredToProjects = jest.spyOn(projects as unknown as { handle(...args: unknown[]): void }, 'handle');
    const app = createServiceApp({
      logger: createLogger({ name: 'route-dispatch-test', level: 'silent' }),
      internalSecret: SECRET,
      readinessChecks: {},
      routes: [projects, users],
    });
    const headers = callerHeader({ kind: 'anonymous' }, SECRET);

    const user = await request(app).get('/api/v4/users/3?x=1').set(headers);
    expect(user.status).toBe(200);
    expect(user.body).toEqual({ served: 'GET /api/v4/users/:id', input: { x: '1', id: '3' } });
    expect(offeredToProjects).not.toHaveBeenCalled();

    const project = await request(app).get('/api/v4/projects/5').set(headers);
    expect(project.body).toEqual({ served: 'GET /api/v4/projects/:id', input: { id: '5' } });
    expect(offeredToProjects).toHaveBeenCalledTimes(1);

    const missing = await request(app).get('/api/v4/projects/5/nothing').set(headers);
    expect(missing.status).toBe(404);
  });
});
