import { describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { z } from 'zod';
import { anonymousCaller } from '@platform/auth';
import { createLogger } from '@platform/logger';
import { callerHeader } from '@platform/testing';
import { params, requestParams } from './params.ts';
import { createRouter, routesOf } from './routes.ts';
import { createServiceApp } from './service-app.ts';
import type { UploadedFile } from './request-body.ts';

const SECRET = 'request-body-test-secret';

const groupParams = z.object({
  name: z.string().max(255),
  path: z.string().max(255),
  ids: params.integerList().optional(),
  active: params.boolean().optional(),
  not: z.object({ labels: z.string() }).optional(),
  avatar: params.file().optional(),
});

const route = routesOf<null>('request-body-test');

/** One endpoint echoing its parameters, so every encoding can be compared with the others. */
const echoRoutes = [
  route({
    method: 'POST',
    path: '/api/v4/groups',
    access: 'anonymous',
    scope: 'api',
    input: groupParams,
    status: 201,
    handle: async ({ input }) => {
      const avatar = input.avatar as UploadedFile | undefined;
      return { ...input, avatar: avatar && { filename: avatar.filename, size: avatar.content.length } };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/groups/:id',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({}),
    handle: async ({ request: req }) => requestParams(req),
  }),
  route({
    method: 'PUT',
    path: '/api/v4/groups/:id',
    access: 'anonymous',
    scope: 'api',
    input: z.object({ id: z.string(), name: z.string() }),
    bodyBytes: 256 * 1024,
    handle: async ({ input }) => ({ id: input.id, length: input.name.length }),
  }),
  route({
    method: 'POST',
    path: '/api/v4/groups/:id/metrics',
    access: 'anonymous',
    scope: 'api',
    input: z.object({ id: z.string(), instance_id: z.string().optional() }),
    dropsBody: true,
    handle: async ({ input, request: req }) => ({ input, body: req.body as unknown }),
  }),
];

function app() {
  const service = createServiceApp({
    logger: createLogger({ name: 'test', level: 'silent' }),
    internalSecret: SECRET,
    readinessChecks: {},
    routes: [createRouter(echoRoutes, null)],
    bodyLimits: { bodyBytes: 64 * 1024, fields: 50, fieldBytes: 1024, files: 2, fileBytes: 4096 },
  });
  return {
    post: (path = '/api/v4/groups') => request(service).post(path).set(callerHeader(anonymousCaller(), SECRET)),
    get: (path: string) => request(service).get(path).set(callerHeader(anonymousCaller(), SECRET)),
    put: (path: string) => request(service).put(path).set(callerHeader(anonymousCaller(), SECRET)),
  };
}

const expected = { name: 'Team', path: 'team', ids: [1, 2], active: true, not: { labels: 'x' } };

describe('request bodies', () => {
  it('reads the same parameters from JSON, a URL-encoded form, a multipart form and the query string', async () => {
    const api = app();
    const json = await api.post().send({ name: 'Team', path: 'team', ids: [1, 2], active: 'True', not: { labels: 'x' } });
    const form = await api.post().type('form').send('name=Team&path=team&ids[]=1&ids[]=2&active=yes&not[labels]=x');
    const multipart = await api
      .post()
      .field('name', 'Team')
      .field('path', 'team')
      .field('ids[]', '1')
      .field('ids[]', '2')
      .field('active', 'ON')
      .field('not[labels]', 'x');
    const query = await api.post('/api/v4/groups?name=Team&path=team&ids=1,2&active=t&not[labels]=x');
    for (const response of [json, form, multipart, query]) {
      expect(response.status).toBe(201);
      expect(response.body).toEqual(expected);
    }
  });

  it('keeps multipart files among the parameters', async () => {
    const response = await app()
      .post()
      .field('name', 'Team')
      .field('path', 'team')
      .attach('avatar', Buffer.from('not really a png'), { filename: 'a.png', contentType: 'image/png' });
    expect(response.status).toBe(201);
    expect(response.body.avatar).toEqual({ filename: 'a.png', size: 16 });
  });

  it('reads gzip-compressed bodies', async () => {
    const response = await app()
      .post()
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      // Sent as the bytes given, not serialised as JSON by the client.
      .serialize((body: Buffer) => body as unknown as string)
      .send(gzipSync(JSON.stringify({ name: 'Team', path: 'team' })));
    expect(response.status).toBe(201);
  });

  it('takes the last value of a parameter repeated in the query string, a URL-encoded or a multipart form, as Rack does', async () => {
    const query = await app().get('/api/v4/groups/1?per_page=100&per_page=2&ids[]=1&ids[]=2&weights[default]=60&weights[default]=70');
    expect(query.status).toBe(200);
    expect(query.body).toEqual({ id: '1', per_page: '2', ids: ['1', '2'], weights: { default: '70' } });
    const multipart = await app()
      .post()
      .field('name', 'First')
      .field('name', 'Team')
      .field('path', 'team')
      .field('ids[]', '1')
      .field('ids[]', '2');
    expect(multipart.status).toBe(201);
    expect(multipart.body).toEqual({ name: 'Team', path: 'team', ids: [1, 2] });
    const form = await app().post().type('form').send('name=First&name=Team&path=team&ids[]=1&ids[]=2');
    expect(form.status).toBe(201);
    expect(form.body).toEqual({ name: 'Team', path: 'team', ids: [1, 2] });
  });

  it('accepts more than twenty array items in the query string', async () => {
    const ids = Array.from({ length: 30 }, (_, index) => `ids[]=${index + 1}`).join('&');
    const response = await app().post(`/api/v4/groups?name=a&path=a&${ids}`);
    expect(response.status).toBe(201);
    expect(response.body.ids).toHaveLength(30);
  });

  it.each([
    ['an unsupported content type', 415, (api: ReturnType<typeof app>) => api.post().set('Content-Type', 'text/plain').send('name=x')],
    [
      'an unsupported JSON charset',
      415,
      (api: ReturnType<typeof app>) => api.post().set('Content-Type', 'application/json; charset=x-bogus').send('{}'),
    ],
    [
      'an unsupported form charset',
      415,
      (api: ReturnType<typeof app>) => api.post().set('Content-Type', 'application/x-www-form-urlencoded; charset=latin1').send('a=b'),
    ],
    ['malformed JSON', 400, (api: ReturnType<typeof app>) => api.post().set('Content-Type', 'application/json').send('{"name":')],
    [
      'gzip encoding on a body that is not gzip',
      400,
      (api: ReturnType<typeof app>) =>
        api.post().set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('{"name":"x"}'),
    ],
    [
      'gzip encoding on a multipart body that is not gzip',
      400,
      (api: ReturnType<typeof app>) => api.post().set('Content-Encoding', 'gzip').field('name', 'x'),
    ],
    ['a JSON body over the limit', 413, (api: ReturnType<typeof app>) => api.post().send({ name: 'x'.repeat(70 * 1024) })],
    [
      'a form with too many fields',
      413,
      (api: ReturnType<typeof app>) =>
        api
          .post()
          .type('form')
          .send(Array.from({ length: 60 }, (_, i) => `f${i}=1`).join('&')),
    ],
    [
      'a multipart body with too many fields',
      413,
      (api: ReturnType<typeof app>) =>
        Array.from({ length: 60 }).reduce<ReturnType<ReturnType<typeof app>['post']>>((req, _, i) => req.field(`f${i}`, '1'), api.post()),
    ],
    ['a multipart field over the limit', 413, (api: ReturnType<typeof app>) => api.post().field('name', 'x'.repeat(2048))],
    ['a multipart file over the limit', 413, (api: ReturnType<typeof app>) => api.post().attach('avatar', Buffer.alloc(8192), 'big.png')],
    [
      'a multipart body without a boundary',
      400,
      (api: ReturnType<typeof app>) => api.post().set('Content-Type', 'multipart/form-data').send('--x\r\n'),
    ],
    [
      'a truncated multipart body',
      400,
      (api: ReturnType<typeof app>) =>
        api
          .post()
          .set('Content-Type', 'multipart/form-data; boundary=abc')
          .send('--abc\r\nContent-Disposition: form-data; name="name"\r\n\r\nx'),
    ],
    [
      'a form nested 50 levels deep',
      400,
      (api: ReturnType<typeof app>) =>
        api
          .post()
          .type('form')
          .send(`a${'[b]'.repeat(50)}=1`),
    ],
    ['a query nested 50 levels deep', 400, (api: ReturnType<typeof app>) => api.post(`/api/v4/groups?a${'[b]'.repeat(50)}=1`)],
    [
      'JSON nested 50 levels deep',
      400,
      (api: ReturnType<typeof app>) =>
        api
          .post()
          .set('Content-Type', 'application/json')
          .send(`${'{"a":'.repeat(50)}1${'}'.repeat(50)}`),
    ],
    ['a NUL byte in a JSON string', 400, (api: ReturnType<typeof app>) => api.post().send({ name: 'a\u0000b', path: 'p' })],
    ['a NUL byte in a form field', 400, (api: ReturnType<typeof app>) => api.post().type('form').send('name=a%00b&path=p')],
    ['a NUL byte in a multipart field', 400, (api: ReturnType<typeof app>) => api.post().field('name', 'a\u0000b').field('path', 'p')],
    ['a NUL byte in a parameter name', 400, (api: ReturnType<typeof app>) => api.post().send({ 'na\u0000me': 'x' })],
    ['a NUL byte in the query string', 400, (api: ReturnType<typeof app>) => api.get('/api/v4/groups/1?search=%00')],
    ['a NUL byte in the path', 400, (api: ReturnType<typeof app>) => api.get('/api/v4/groups/%00')],
    ['malformed percent-encoding in the path', 400, (api: ReturnType<typeof app>) => api.get('/api/v4/groups/%E0%A4%A')],
    ['an invalid escape in the path', 400, (api: ReturnType<typeof app>) => api.get('/api/v4/projects/%ZZ')],
    ['malformed percent-encoding in the query', 400, (api: ReturnType<typeof app>) => api.get('/api/v4/groups/1?search=%E0%A4%A')],
  ])('answers %s with %i and a GitLab body', async (_case, status, send) => {
    const response = await send(app());
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe('application/json');
    expect(Object.keys(response.body as object).some((key) => key === 'message' || key === 'error')).toBe(true);
  });

  it('takes larger JSON and form bodies where the route declares a larger bound (bodyBytes), and only there', async () => {
    const api = app();
    const name = 'x'.repeat(200 * 1024);
    expect((await api.put('/api/v4/groups/7').send({ name })).body).toEqual({ id: '7', length: name.length });
    expect((await api.put('/api/v4/groups/7').type('form').send(`name=${name}`)).body).toEqual({ id: '7', length: name.length });
    expect((await api.put('/api/v4/groups/7').send({ name: `${name}${name}` })).status).toBe(413);
    expect((await api.post().send({ name, path: 'p' })).status).toBe(413);
  });

  describe('on a route that drops its body', () => {
    const metrics = (api: ReturnType<typeof app>) => api.post('/api/v4/groups/7/metrics');
    /** A body the service's checks would refuse if it were taken as parameters: nested 50 deep, with a NUL byte. */
    const dropped = { bucket: Array.from({ length: 50 }).reduce<unknown>((inner) => ({ a: inner }), 'x\u0000y') };

    it("takes only the input's parameters from a JSON body, and nothing else of it", async () => {
      const response = await metrics(app()).send({ instance_id: 'abc', ...dropped });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ input: { id: '7', instance_id: 'abc' }, body: { instance_id: 'abc' } });
      const charset = await metrics(app()).set('Content-Type', 'application/json; charset=UTF-8').send('\ufeff{"instance_id":"abc"}');
      expect(charset.body).toEqual({ input: { id: '7', instance_id: 'abc' }, body: { instance_id: 'abc' } });
      for (const body of ['[1,2]', '"text"', '']) {
        const other = await metrics(app()).set('Content-Type', 'application/json').send(body);
        expect(other.status).toBe(200);
        expect(other.body).toEqual({ input: { id: '7' }, body: {} });
      }
    });

    it('still refuses malformed JSON with 400, a body over the bound with 413, and a bad kept parameter', async () => {
      const malformed = await metrics(app()).set('Content-Type', 'application/json').send('{"instance_id":');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'The request body is not valid JSON' });
      const large = await metrics(app()).send({ instance_id: 'abc', padding: 'x'.repeat(70 * 1024) });
      expect(large.status).toBe(413);
      expect(large.body).toEqual({ message: '413 Payload Too Large' });
      const nul = await metrics(app()).send({ instance_id: 'a\u0000b' });
      expect(nul.status).toBe(400);
      expect((await metrics(app()).send({ instance_id: 5 })).body).toEqual({ error: 'instance_id is invalid' });
    });

    it('reads other bodies with the parsers, as any route', async () => {
      const form = await metrics(app()).type('form').send('instance_id=abc&other=1');
      expect(form.body).toEqual({ input: { id: '7', instance_id: 'abc' }, body: { instance_id: 'abc', other: '1' } });
      const compressed = await metrics(app())
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .serialize((body: Buffer) => body as unknown as string)
        .send(gzipSync(JSON.stringify(dropped)));
      expect(compressed.status).toBe(400);
    });
  });

  it('words a refused content type as Grape does', async () => {
    const response = await app().post().set('Content-Type', 'text/plain').send('hello');
    expect(response.body).toEqual({ error: "The provided content-type 'text/plain' is not supported." });
  });

  it('ignores a body without a content type and requests without a body', async () => {
    const response = await app().get('/api/v4/groups/7?search=x');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ search: 'x', id: '7' });
  });
});
