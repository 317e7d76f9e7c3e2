/**
 * What the gateway tells a service and hears back from it: how long the signed caller stays
 * valid and how long a request may wait, by method and route, and the users whose
 * authentication a request changed.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { AUTHENTICATION_CHANGED_HEADER, authenticationChanged, CALLER_HEADER, verifyCaller } from '@platform/auth';
import { createLogger } from '@platform/logger';
import type { IdentityServiceClient } from '@platform/proto/identity/v1';
import { Authenticator } from './authenticator.ts';
import { createGatewayApp } from './gateway-app.ts';
import { createMetrics } from './metrics.ts';
import { SERVICES } from './route-table.ts';
import { UpstreamPool } from './upstreams.ts';

const SECRET = 'gateway-app-upstream-test-secret';
const logger = createLogger({ name: 'gateway-app-upstream-test', level: 'silent' });
const CONNECT_TIMEOUT_MS = 100;
const READ_TIMEOUT_MS = 200;
const RESPONSE_TIMEOUT_MS = 30_000;
/** How long the stand-in service takes when asked to be slow: past the read timeout, within the response timeout. */
const SLOW_ANSWER_MS = 800;
/** How long a request sat in the stand-in service's queue before it was looked at, as in a frozen process. */
const QUEUED_MS = 20_000;

/**
 * A service that verifies the caller as if the request had queued for `QUEUED_MS`, answers
 * `?slow` requests after `SLOW_ANSWER_MS`, and names user 2 as changed on `POST .../block`.
 */
let service: http.Server;
let serviceUrl: string;

beforeAll(async () => {
  service = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://service');
    const answer = () => {
      try {
        verifyCaller(
          req.headers[CALLER_HEADER] as string | undefined,
          SECRET,
          { method: req.method ?? '', path: url.pathname },
          {
            now: Date.now() + (url.searchParams.has('queued') ? QUEUED_MS : 0),
          },
        );
      } catch (error) {
        res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: String(error) }));
        return;
      }
      const changed = url.pathname.endsWith('/block') ? authenticationChanged([2]) : {};
      res.writeHead(200, { 'Content-Type': 'application/json', ...changed }).end('{}');
    };
    req.resume();
    if (url.searchParams.has('slow')) setTimeout(answer, SLOW_ANSWER_MS);
    else answer();
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});

afterAll(async () => {
  service.closeAllConnections();
  await new Promise((resolve) => service.close(resolve));
});

/** Identity as a table of tokens to user ids; a token taken out of it is refused. */
function identityOf(tokens: Record<string, number>): IdentityServiceClient {
  const client = {
    authenticate(request: { token: string }, _metadata: unknown, _options: unknown, callback: (error: unknown, response: unknown) => void) {
      const userId = tokens[request.token];
      setImmediate(() =>
        userId === undefined
          ? callback({ code: 16, details: 'Unauthorized' }, undefined)
          : callback(null, {
              user: { id: userId, username: `user${userId}`, name: 'User', isAdmin: true },
              scopes: ['api'],
              impersonatorId: 0,
            }),
      );
    },
  };
  return client as unknown as IdentityServiceClient;
}

function gateway(authenticator = new Authenticator({ client: identityOf({}), ttlMs: 0 })) {
  const pool = (name: string) =>
    new UpstreamPool({
      service: name,
      urls: [serviceUrl],
      logger,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      responseTimeoutMs: RESPONSE_TIMEOUT_MS,
      failuresToOpen: 100,
      halfOpenAfterMs: 1000,
    });
  return request(
    createGatewayApp({
      logger,
      authenticator,
      internalSecret: SECRET,
      upstreams: Object.fromEntries(SERVICES.map((name) => [name, pool(name)])),
      metrics: createMetrics(),
      identityChannelState: () => 'READY',
      authInvalidationState: () => 'live',
      readTimeoutMs: READ_TIMEOUT_MS,
      trustedProxies: [],
    }),
  );
}

describe('how long the gateway waits', () => {
  it('ends a read within the read timeout with 504', async () => {
    const started = Date.now();
    const response = await gateway().get('/api/v4/users?slow');
    expect(response.status).toBe(504);
    expect(response.body).toEqual({ message: '504 Gateway Timeout' });
    expect(Date.now() - started).toBeLessThan(SLOW_ANSWER_MS);
  });

  it('gives writes and the reads of slow routes the response timeout', async () => {
    expect((await gateway().post('/api/v4/users?slow').send({})).status).toBe(200);
    expect((await gateway().get('/api/v4/packages/npm/kit?slow')).status).toBe(200);
    expect((await gateway().get('/uploads/-/system/user/avatar/1/me.png?slow')).status).toBe(200);
  });
});

describe('the signed caller', () => {
  it('stays valid while the gateway waits for the answer, however long the service took to look at it', async () => {
    // A write waits for the response timeout: a service that took it up late still knows the caller.
    expect((await gateway().post('/api/v4/users?queued').send({})).status).toBe(200);
  });

  it('is not valid for much longer than the gateway waits', async () => {
    // A read waits for less than the queue time here: the header has expired by then.
    expect((await gateway().get('/api/v4/users?queued')).status).toBe(401);
  });
});

describe('a response naming users whose authentication changed', () => {
  it('makes the gateway forget their cached authentications before the client has the answer, and stays internal', async () => {
    const tokens: Record<string, number> = { 'token-of-2': 2, 'token-of-1': 1 };
    const app = gateway(new Authenticator({ client: identityOf(tokens), ttlMs: 600_000, invalidationLive: () => true }));
    expect((await app.get('/api/v4/user').set('PRIVATE-TOKEN', 'token-of-2')).status).toBe(200);
    // Identity has blocked user 2: the cached authentication still lets the token in until forgotten.
    delete tokens['token-of-2'];
    expect((await app.get('/api/v4/user').set('PRIVATE-TOKEN', 'token-of-2')).status).toBe(200);
    const block = await app.post('/api/v4/users/2/block').set('PRIVATE-TOKEN', 'token-of-1');
    expect(block.status).toBe(200);
    expect(block.headers[AUTHENTICATION_CHANGED_HEADER]).toBeUndefined();
    expect((await app.get('/api/v4/user').set('PRIVATE-TOKEN', 'token-of-2')).status).toBe(401);
  });
});

describe('the request id', () => {
  it("comes with the service's answer in its head, which Node writes as given: no header is set on the answer ahead of it", async () => {
    const setHeader = jest.spyOn(http.ServerResponse.prototype, 'setHeader');
    try {
      const answer = await gateway().get('/api/v4/users').set('X-Request-Id', 'proxied-1');
      expect(answer.status).toBe(200);
      expect(answer.headers['x-request-id']).toBe('proxied-1');
      expect(setHeader).not.toHaveBeenCalled();
    } finally {
      setHeader.mockRestore();
    }
  });

  it("comes with the gateway's own answer when the service does not answer in time", async () => {
    const answer = await gateway().get('/api/v4/users?slow').set('X-Request-Id', 'timed-out-1');
    expect(answer.status).toBe(504);
    expect(answer.headers['x-request-id']).toBe('timed-out-1');
  });
});
