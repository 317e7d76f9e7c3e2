/**
 * The gateway's own request listener in front of express: proxied requests are served on Node's
 * request and response without entering express, everything else is express's; and what the
 * gateway answers itself on its own listener is, byte for byte, what express answered.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import http from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { createLogger } from '@platform/logger';
import { exactJsonContentType, requestLogging } from '@platform/http';
import type { IdentityServiceClient } from '@platform/proto/identity/v1';
import { Authenticator } from './authenticator.ts';
import { createGatewayApp } from './gateway-app.ts';
import { createMetrics } from './metrics.ts';
import { SERVICES, type ServiceName } from './route-table.ts';
import { UpstreamPool } from './upstreams.ts';

const SECRET = 'gateway-listener-test-secret';
const silent = createLogger({ name: 'gateway-listener-test', level: 'silent' });

/** A service answering every request with its method and path. */
let service: http.Server;
let serviceUrl: string;

beforeAll(async () => {
  service = http.createServer((req, res) => {
    req.resume();
    req.once('end', () =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ method: req.method, url: req.url })),
    );
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});

afterAll(async () => {
  service.closeAllConnections();
  await new Promise((resolve) => service.close(resolve));
});

/**
 * Identity's `Authenticate` by token: `good` is a user, `scopeless` lacks the `api` scope, `odd`
 * gets an answer without a user (a fault of the gateway's, a 500), any other is refused.
 */
const identity = {
  authenticate(request: { token: string }, _metadata: unknown, _options: unknown, callback: (error: unknown, response: unknown) => void) {
    const answers: Record<string, [unknown, unknown]> = {
      good: [null, { user: { id: 1, username: 'root', name: 'Root', isAdmin: true }, scopes: ['api'], impersonatorId: 0 }],
      scopeless: [{ code: 7, details: 'insufficient_scope:api' }, undefined],
      odd: [null, {}],
    };
    const [error, response] = answers[request.token] ?? [{ code: 16, details: 'Unauthorized' }, undefined];
    setImmediate(() => callback(error, response));
  },
} as unknown as IdentityServiceClient;

const servers: http.Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function gateway(options: { services?: ServiceName[]; logger?: ReturnType<typeof createLogger> } = {}): Promise<number> {
  const pool = (name: string) =>
    new UpstreamPool({
      service: name,
      urls: [serviceUrl],
      logger: silent,
      connectTimeoutMs: 1000,
      responseTimeoutMs: 5000,
      failuresToOpen: 5,
      halfOpenAfterMs: 1000,
    });
  const server = createGatewayApp({
    logger: options.logger ?? silent,
    authenticator: new Authenticator({ client: identity, ttlMs: 0 }),
    internalSecret: SECRET,
    upstreams: Object.fromEntries((options.services ?? SERVICES).map((name) => [name, pool(name)])),
    metrics: createMetrics(),
    identityChannelState: () => 'READY',
    authInvalidationState: () => 'off',
    readTimeoutMs: 5000,
    trustedProxies: [],
  }).listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

/** The whole answer as it came over the wire, its `Date` line out (the one that differs from second to second). */
function rawAnswer(port: number, head: string, body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\nHost: gitlab.test\r\nConnection: close\r\n\r\n${body}`));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer.replace(/\r\nDate: [^\r]*/, '')));
    socket.on('error', reject);
  });
}

describe("the gateway's listener", () => {
  let enteredExpress: ReturnType<typeof jest.spyOn>;
  beforeAll(() => {
    // Spied before any gateway is made: express copies `handle` onto each app it makes.
    // `handle` is express's own, undeclared in its types.
    enteredExpress = jest.spyOn(express.application as unknown as { handle: (...args: unknown[]) => void }, 'handle');
  });
  afterAll(() => enteredExpress.mockRestore());
  afterEach(() => enteredExpress.mockClear());

  it('serves proxied requests without express: reads and writes, git, SCIM, refusals, unproxied services', async () => {
    const port = await gateway({ services: ['identity', 'review'] });
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${port}${path}`, { headers });
    expect((await get('/api/v4/users?username=x', { 'PRIVATE-TOKEN': 'good' })).status).toBe(200);
    const written = await fetch(`http://127.0.0.1:${port}/api/v4/users/1/block`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': 'good', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(await written.json()).toEqual({ method: 'POST', url: '/api/v4/users/1/block' });
    expect((await get('/group/project.git/info/refs?service=git-upload-pack')).status).toBe(200);
    expect((await get('/api/scim/v2/groups/g/Users')).status).toBe(200);
    expect((await get('/api/v4/user', { 'PRIVATE-TOKEN': 'refused' })).status).toBe(401);
    expect((await get('/api/v4/audit_events')).status).toBe(503);
    expect(enteredExpress).not.toHaveBeenCalled();
  });

  it('leaves express its own routes, unknown paths, malformed URLs and targets it does not parse itself', async () => {
    const port = await gateway();
    for (const [path, status] of [
      ['/-/health', 200],
      ['/-/metrics', 200],
      ['/assets/no_avatar.png', 200],
      ['/api/docs', 200],
      ['/api/v4/nothing-here', 404],
      ['/nothing-here', 404],
    ] as const) {
      enteredExpress.mockClear();
      expect([path, (await fetch(`http://127.0.0.1:${port}${path}`)).status]).toEqual([path, status]);
      expect([path, enteredExpress.mock.calls.length]).toEqual([path, 1]);
    }
    enteredExpress.mockClear();
    const malformed = await rawAnswer(port, 'GET /api/v4/users/%ZZ HTTP/1.1');
    expect(malformed).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(malformed.endsWith('{"message":"400 Bad request - Invalid percent-encoding in the path"}')).toBe(true);
    // A request line may carry a fragment: express parses the target, and the request is proxied all the same.
    expect(await rawAnswer(port, 'GET /api/v4/users#part HTTP/1.1')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(enteredExpress).toHaveBeenCalledTimes(2);
  });

  it('logs one line per proxied request, on its own listener or through express, with the credentials redacted', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const port = await gateway({ logger: createLogger({ name: 'gateway-listener-test', level: 'info', destination: sink }) });
    await rawAnswer(port, 'GET /api/v4/users?private_token=good&page=2 HTTP/1.1\r\nX-Request-Id: plain-1');
    await rawAnswer(port, 'GET /api/v4/users?private_token=good#part HTTP/1.1\r\nX-Request-Id: parsed-1');
    await rawAnswer(port, 'GET /-/health HTTP/1.1');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({ reqId: 'plain-1', method: 'GET', status: 200, url: '/api/v4/users?private_token=[redacted]&page=2' }),
      expect.objectContaining({ reqId: 'parsed-1', method: 'GET', status: 200, url: '/api/v4/users?private_token=[redacted]' }),
    ]);
  });
});

/** The answers the gateway wrote through express before it had a listener of its own, each as express wrote it. */
function expressAnswers(): http.Server {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(exactJsonContentType());
  app.use(requestLogging(silent));
  const answers: Record<string, express.RequestHandler> = {
    unauthorized: (_req, res) => void res.status(401).json({ message: '401 Unauthorized' }),
    'insufficient-scope': (_req, res) =>
      void res.status(403).json({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api',
      }),
    'git-challenge': (_req, res) =>
      void res
        .status(401)
        .set('WWW-Authenticate', 'Basic realm="GitLab"')
        .type('text/plain')
        .send('HTTP Basic: Access denied. If a token was provided, it was either incorrect, expired, or improperly scoped.'),
    'registry-refusal': (_req, res) =>
      void res.status(401).json({ errors: [{ code: 'UNAUTHORIZED', message: 'HTTP Basic: Access denied' }] }),
    unavailable: (_req, res) => void res.status(503).json({ message: '503 Service Unavailable' }),
    fault: (_req, res) => void res.status(500).json({ message: '500 Internal Server Error' }),
  };
  app.all('/:answer', (req, res, next) => answers[req.params.answer as string]?.(req, res, next));
  const server = http.createServer(app).listen(0, '127.0.0.1');
  servers.push(server);
  return server;
}

describe("the gateway's own answers on its listener", () => {
  it("are express's, headers and all, to GET and to HEAD", async () => {
    const port = await gateway({ services: ['identity', 'packages', 'review'] });
    const reference = expressAnswers();
    await new Promise((resolve) => reference.once('listening', resolve));
    const referencePort = (reference.address() as AddressInfo).port;
    const basic = (password: string) => `Authorization: Basic ${Buffer.from(`oauth2:${password}`).toString('base64')}`;
    const cases: Array<[string, string, string]> = [
      ['unauthorized', '/api/v4/user', 'PRIVATE-TOKEN: refused'],
      ['insufficient-scope', '/api/v4/user', 'PRIVATE-TOKEN: scopeless'],
      ['git-challenge', '/group/project.git/info/refs', basic('refused')],
      ['registry-refusal', '/jwt/auth', basic('refused')],
      ['unavailable', '/api/v4/audit_events', 'PRIVATE-TOKEN: good'],
      ['fault', '/api/v4/user', 'PRIVATE-TOKEN: odd'],
    ];
    for (const method of ['GET', 'HEAD']) {
      for (const [answer, path, credentials] of cases) {
        const id = `X-Request-Id: ${answer}`;
        const expected = await rawAnswer(referencePort, `${method} /${answer} HTTP/1.1\r\n${id}`);
        expect([method, answer, await rawAnswer(port, `${method} ${path} HTTP/1.1\r\n${credentials}\r\n${id}`)]).toEqual([
          method,
          answer,
          expected,
        ]);
      }
    }
  });
});
