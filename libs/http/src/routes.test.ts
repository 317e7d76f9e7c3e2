import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import request from 'supertest';
import type { Caller } from '@platform/auth';
import { createLogger } from '@platform/logger';
import { callerHeader } from '@platform/testing';
import { jsonText } from './json-responses.ts';
import { params } from './params.ts';
import { pageParams, pageShape } from './pagination.ts';
import { createRouter, reply, routeCatalogue, routesOf } from './routes.ts';
import { createServiceApp } from './service-app.ts';

const SECRET = 'routes-test-secret';
const route = routesOf<{ things: string[] }>('test');

const thingRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/things',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ ...pageShape }),
    handle: async ({ input, deps, page }) => {
      const window = pageParams(input);
      return page(window, { total: deps.things.length, items: deps.things.slice(window.offset, window.offset + window.perPage) });
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/things',
    access: 'user',
    scope: 'api',
    input: z.object({ name: z.string().max(10) }),
    status: 201,
    handle: async ({ caller, input }) => ({ name: input.name, by: caller.username }),
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/things/:id',
    access: 'administrator',
    scope: 'api',
    input: z.object({ id: params.integer() }),
    status: 204,
    handle: async () => undefined,
  }),
  route({
    method: 'GET',
    path: '/api/v4/users/:id/things',
    access: 'anonymous',
    scope: 'read_user',
    input: z.object({ id: params.integer() }),
    handle: async ({ input, request: req }) => reply({ headers: { 'X-Asked-By': req.get('x-asker') ?? '' }, body: { owner: input.id } }),
  }),
  route({
    method: 'GET',
    path: '/api/v4/things/:id/picture',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.integer() }),
    handle: async () => reply({ headers: { 'Content-Type': 'image/png' }, body: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }),
  }),
  route({
    method: 'PUT',
    path: '/api/v4/things/:id/package',
    access: 'user_or_deploy_token',
    scope: 'api',
    input: z.object({ id: params.integer() }),
    handle: async ({ caller }) => ({ by: caller.kind === 'user' ? caller.username : caller.deployToken?.username }),
  }),
  route({
    method: 'GET',
    path: '/api/v4/things/:id/summary',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.integer() }),
    // As a statement writes it (`json_build_object(...)::text`): spaced as JSON.stringify would not.
    handle: async ({ input }) => jsonText(`{"id" : ${input.id}, "name" : "ä"}`),
  }),
];

/** Who is an administrator now, as the service owning users would answer; user 5 is one until a test demotes them. */
const currentAdministrators = new Set([5]);

const app = request(
  createServiceApp({
    logger: createLogger({ name: 'routes-test', level: 'silent' }),
    internalSecret: SECRET,
    readinessChecks: {},
    administrators: { isAdministrator: async (caller) => currentAdministrators.has(caller.userId) },
    routes: [createRouter(thingRoutes, { things: ['a', 'b', 'c'] })],
  }),
);

function as(scopes: string[], isAdmin = false): Record<string, string> {
  const caller: Caller = { kind: 'user', userId: 5, username: 'ada', name: 'Ada', isAdmin, scopes };
  return callerHeader(caller, SECRET);
}
const anonymous = callerHeader({ kind: 'anonymous' }, SECRET);

const insufficient = (scope: string) => ({
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope,
});

describe('declared routes', () => {
  it('validates input as Grape does, from the query, the body and the path', async () => {
    const missing = await app
      .post('/api/v4/things')
      .set(as(['api']))
      .send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing' });
    const created = await app.post('/api/v4/things?name=widget').set(as(['api']));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: 'widget', by: 'ada' });
    expect((await app.delete('/api/v4/things/abc').set(as(['api'], true))).body).toEqual({ error: 'id is invalid' });
  });

  it("sends a file's bytes as they are, typed by the route", async () => {
    const picture = await app.get('/api/v4/things/1/picture').set(anonymous);
    expect(picture.status).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.body).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it('sends JSON text a statement wrote as its bytes, with the exact JSON type and its length', async () => {
    const summary = await app.get('/api/v4/things/4/summary').set(anonymous);
    expect(summary.status).toBe(200);
    expect(summary.text).toBe('{"id" : 4, "name" : "ä"}');
    expect(summary.headers['content-type']).toBe('application/json');
    expect(summary.headers['content-length']).toBe(String(Buffer.byteLength(summary.text)));
    expect(summary.headers.etag).toBeUndefined();
  });

  it('pages lists with GitLab headers, and sends 204 without a body', async () => {
    const listed = await app.get('/api/v4/things?per_page=2&page=2').set(anonymous);
    expect(listed.body).toEqual(['c']);
    expect(listed.headers).toMatchObject({ 'x-total': '3', 'x-page': '2', 'x-per-page': '2' });
    const deleted = await app.delete('/api/v4/things/1').set(as(['api'], true));
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
  });

  it('holds anonymous, user and administrator declarations', async () => {
    expect((await app.get('/api/v4/things').set(anonymous)).status).toBe(200);
    expect((await app.post('/api/v4/things').set(anonymous).send({ name: 'x' })).status).toBe(401);
    expect((await app.delete('/api/v4/things/1').set(anonymous)).status).toBe(401);
    const notAdmin = await app.delete('/api/v4/things/1').set(as(['api']));
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body).toEqual({ message: '403 Forbidden' });
  });

  it('lets a deploy token in where the route takes one, still refusing an anonymous caller and a narrow user token', async () => {
    const deployToken = callerHeader(
      {
        kind: 'anonymous',
        deployToken: { id: 3, username: 'gitlab+deploy-token-3', scopes: ['write_package_registry'], projectId: 1, groupId: null },
      },
      SECRET,
    );
    expect((await app.put('/api/v4/things/1/package').set(deployToken)).body).toEqual({ by: 'gitlab+deploy-token-3' });
    expect((await app.put('/api/v4/things/1/package').set(as(['api']))).body).toEqual({ by: 'ada' });
    expect((await app.put('/api/v4/things/1/package').set(anonymous)).status).toBe(401);
    expect((await app.put('/api/v4/things/1/package').set(as(['read_api']))).body).toEqual(insufficient('api'));
    // A route for users alone refuses the deploy token as forbidden.
    expect((await app.post('/api/v4/things').set(deployToken).send({ name: 'x' })).status).toBe(403);
  });

  it('confirms an administrator with the administrator check, not the signed flag alone', async () => {
    expect((await app.delete('/api/v4/things/1').set(as(['api'], true))).status).toBe(204);
    currentAdministrators.delete(5);
    try {
      const demoted = await app.delete('/api/v4/things/1').set(as(['api'], true));
      expect(demoted.status).toBe(403);
      expect(demoted.body).toEqual({ message: '403 Forbidden' });
      // Routes for everyone do not ask.
      expect(
        (
          await app
            .post('/api/v4/things')
            .set(as(['api'], true))
            .send({ name: 'x' })
        ).status,
      ).toBe(201);
    } finally {
      currentAdministrators.add(5);
    }
  });

  it('refuses to build an app serving administrator-only routes without an administrator check', () => {
    expect(() =>
      createServiceApp({
        logger: createLogger({ name: 'routes-test', level: 'silent' }),
        internalSecret: SECRET,
        readinessChecks: {},
        routes: [createRouter(thingRoutes, { things: [] })],
      }),
    ).toThrow('administrator-only routes need an administrator check');
  });

  it('refuses a read_api token any write', async () => {
    expect((await app.get('/api/v4/things').set(as(['read_api']))).status).toBe(200);
    const write = await app
      .post('/api/v4/things')
      .set(as(['read_api']))
      .send({ name: 'x' });
    expect(write.status).toBe(403);
    expect(write.body).toEqual(insufficient('api'));
    // Even an administrator's token is only as strong as its scopes.
    expect((await app.delete('/api/v4/things/1').set(as(['read_api', 'sudo'], true))).body).toEqual(insufficient('api'));
  });

  it('lets a read_user token read users only', async () => {
    const userRead = await app
      .get('/api/v4/users/9/things')
      .set(as(['read_user']))
      .set('X-Asker', 'me');
    expect(userRead.status).toBe(200);
    expect(userRead.body).toEqual({ owner: 9 });
    expect(userRead.headers['x-asked-by']).toBe('me');
    const otherRead = await app.get('/api/v4/things').set(as(['read_user']));
    expect(otherRead.status).toBe(403);
    expect(otherRead.body).toEqual(insufficient('api read_api'));
    expect(
      (
        await app
          .post('/api/v4/things')
          .set(as(['read_user']))
          .send({ name: 'x' })
      ).body,
    ).toEqual(insufficient('api'));
  });

  it('refuses git and registry tokens on the API', async () => {
    for (const scope of ['read_repository', 'write_repository', 'read_registry', 'write_registry']) {
      expect((await app.get('/api/v4/things').set(as([scope]))).status).toBe(403);
    }
  });
});

describe('route catalogue', () => {
  it('lists every defined route with its declaration', () => {
    expect(routeCatalogue().filter((entry) => entry.service === 'test')).toEqual([
      expect.objectContaining({ method: 'GET', path: '/api/v4/things', access: 'anonymous', scope: 'read_api', status: 200 }),
      expect.objectContaining({ method: 'POST', path: '/api/v4/things', access: 'user', scope: 'api', status: 201 }),
      expect.objectContaining({ method: 'DELETE', path: '/api/v4/things/:id', access: 'administrator', scope: 'api', status: 204 }),
      expect.objectContaining({ method: 'GET', path: '/api/v4/users/:id/things', scope: 'read_user' }),
      expect.objectContaining({ method: 'GET', path: '/api/v4/things/:id/picture', scope: 'read_api' }),
      expect.objectContaining({ method: 'PUT', path: '/api/v4/things/:id/package', access: 'user_or_deploy_token' }),
      expect.objectContaining({ method: 'GET', path: '/api/v4/things/:id/summary', scope: 'read_api' }),
    ]);
    expect(routeCatalogue().find((entry) => entry.service === 'test')?.input).toBeInstanceOf(z.ZodObject);
  });

  it('refuses a declaration that would let a read-only token write, or read_user read beyond users and events', () => {
    const declare = (method: 'GET' | 'POST', path: string, scope: 'read_api' | 'read_user' | 'read_repository') => () =>
      route({ method, path, access: 'user', scope, input: z.object({}), handle: async () => null });
    expect(declare('POST', '/api/v4/things', 'read_api')).toThrow('a write cannot be granted by read_api');
    expect(declare('POST', '/api/v4/user/keys', 'read_user')).toThrow('a write cannot be granted by read_user');
    expect(declare('POST', '/api/v4/projects/1/repository', 'read_repository')).toThrow('a write cannot be granted');
    expect(declare('GET', '/api/v4/groups', 'read_user')).toThrow('read_user grants only reads of /user, /users and events');
    expect(declare('GET', '/api/v4/projects/:id/merge_requests', 'read_user')).toThrow('read_user grants only reads');
    expect(declare('GET', '/api/v4/projects/:id/events', 'read_user')).not.toThrow();
    expect(declare('GET', '/groups', 'read_api')).toThrow('written in full');
  });

  it('refuses a route that drops its body without an object schema naming the parameters it reads', () => {
    const declare = (input: z.ZodType) => () =>
      route({
        method: 'POST',
        path: '/api/v4/things/:id/metrics',
        access: 'anonymous',
        scope: 'api',
        input,
        dropsBody: true,
        handle: async () => null,
      });
    expect(declare(z.string())).toThrow('names the parameters it reads with an object schema');
    expect(declare(z.object({ id: z.string() }))).not.toThrow();
  });
});
