/**
 * The gateway's upstream handling against real sockets: a service that never answers, one that
 * refuses connections, and one of two replicas gone.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import express from 'express';
import { propagation, type TextMapPropagator } from '@opentelemetry/api';
import { listen } from '@platform/http';
import { createLogger } from '@platform/logger';
import { waitFor } from '@platform/testing';
import { CONNECTIONS_PER_ADDRESS, UpstreamPool, type UpstreamPoolOptions } from './upstreams.ts';

const logger = createLogger({ name: 'upstreams-test', level: 'silent' });
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function listening<Server extends net.Server>(server: Server): Promise<{ server: Server; url: string }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) (server as unknown as http.Server).closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A service that answers with its name and counts what it served. */
async function answeringService(name: string) {
  const served = { count: 0 };
  const state = { hang: false };
  const { server, url } = await listening(
    http.createServer((req, res) => {
      if (state.hang) return;
      served.count += 1;
      req.resume();
      req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ name })));
    }),
  );
  return {
    server,
    url,
    served,
    set hang(value: boolean) {
      state.hang = value;
    },
  };
}

/** A process that accepts connections and never answers, like one frozen with SIGSTOP. */
async function frozenService() {
  const sockets = new Set<net.Socket>();
  const connections = { count: 0 };
  const { url } = await listening(
    net.createServer((socket) => {
      connections.count += 1;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }),
  );
  closers.push(async () => sockets.forEach((socket) => socket.destroy()));
  return { url, connections };
}

/** An address nothing listens on. */
async function deadAddress(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function gatewayFor(options: Partial<UpstreamPoolOptions> & { urls: string[] }) {
  const pool = new UpstreamPool({
    service: 'test',
    logger,
    connectTimeoutMs: 500,
    responseTimeoutMs: 300,
    failuresToOpen: 3,
    halfOpenAfterMs: 500,
    ...options,
  });
  const { url } = await listening(http.createServer((req, res) => void pool.forward(req, res)));
  return { pool, url };
}

/** A request that fails the test instead of hanging: the gateway must answer well before 5 s. */
async function send(url: string, init: RequestInit = {}) {
  const response = await fetch(`${url}/api/v4/things`, { ...init, signal: AbortSignal.timeout(5000) });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('UpstreamPool', () => {
  it('answers 504 with a GitLab body when the service does not respond in time', async () => {
    const frozen = await frozenService();
    const { url } = await gatewayFor({ urls: [frozen.url] });
    expect(await send(url)).toEqual({ status: 504, body: { message: '504 Gateway Timeout' } });
  });

  it('fails fast with 503 without reaching the service while the circuit is open', async () => {
    const frozen = await frozenService();
    const { url, pool } = await gatewayFor({ urls: [frozen.url], halfOpenAfterMs: 60_000 });
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await send(url)).status).toBe(504);
    expect(pool.circuits()).toEqual({ [frozen.url]: 'open' });
    const reached = frozen.connections.count;
    expect(await send(url)).toEqual({ status: 503, body: { message: '503 Service Unavailable' } });
    expect(frozen.connections.count).toBe(reached);
  });

  it('closes the circuit again once a trial request succeeds', async () => {
    const service = await answeringService('back');
    service.hang = true;
    const { url, pool } = await gatewayFor({ urls: [service.url], halfOpenAfterMs: 200 });
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await send(url)).status).toBe(504);
    expect(pool.circuits()[service.url]).toBe('open');
    service.hang = false;
    const answer = await waitFor(
      async () => {
        const response = await send(url);
        return response.status === 200 ? response : undefined;
      },
      { what: 'the service used again' },
    );
    expect(answer.body).toEqual({ name: 'back' });
    expect(pool.circuits()[service.url]).toBe('closed');
  });

  it('retries a GET once on another address, and a POST only when no byte of it can have reached the service', async () => {
    const received: string[] = [];
    const { url: live } = await listening(
      http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          received.push(body);
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ body }));
        });
      }),
    );
    const dead = await deadAddress();
    const { url } = await gatewayFor({ urls: [dead, live], failuresToOpen: 1000 });
    const gets = await Promise.all(Array.from({ length: 10 }, () => send(url)));
    expect(gets.map((response) => response.status)).toEqual(Array(10).fill(200));
    // Refused connections: the posts sent to the dead address first arrive, once each, with their bodies.
    const posts = await Promise.all(Array.from({ length: 10 }, (_, n) => send(url, { method: 'POST', body: JSON.stringify({ n }) })));
    expect(posts.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(received.filter((body) => body.startsWith('{"n"')).sort()).toEqual(
      Array.from({ length: 10 }, (_, n) => JSON.stringify({ n })).sort(),
    );
    // A body too large to read ahead is streamed, and so not sent again.
    const large = await Promise.all(Array.from({ length: 2 }, () => send(url, { method: 'POST', body: 'x'.repeat(70 * 1024) })));
    expect(large.map((response) => response.status).sort()).toEqual([200, 502]);
  });

  it('passes on a body its client sends only after 100 Continue (Maven uploads)', async () => {
    const service = await answeringService('continued');
    const { url } = await gatewayFor({ urls: [service.url] });
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${url}/api/v4/things`, {
        method: 'PUT',
        headers: { Expect: '100-continue', 'Content-Length': '5' },
        timeout: 5000,
      });
      request.on('continue', () => request.end('hello'));
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('timeout', () => request.destroy(new Error('hung')));
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(answer).toEqual({ status: 200, body: '{"name":"continued"}' });
  });

  it('never sends a POST again once the service may have received it', async () => {
    const frozen = await frozenService();
    const live = await answeringService('live');
    const { url } = await gatewayFor({ urls: [frozen.url, live.url], failuresToOpen: 1000 });
    expect((await send(url, { method: 'POST', body: '{}' })).status).toBe(504);
    expect(live.served.count).toBe(0);
  });

  it('sends a GET again on a fresh connection when the service closed the connection without answering, never a POST', async () => {
    const received: string[] = [];
    // Reads each request's head, and hangs up without a word on the first of each method.
    const { url: service } = await listening(
      net.createServer((socket) => {
        let head = '';
        socket.on('data', (chunk: Buffer) => {
          head += chunk.toString('latin1');
          if (!head.includes('\r\n\r\n')) return;
          const method = head.slice(0, head.indexOf(' '));
          head = '';
          received.push(method);
          if (received.filter((seen) => seen === method).length === 1) socket.destroy();
          else socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
        });
      }),
    );
    const { url } = await gatewayFor({ urls: [service] });
    expect(await send(url)).toEqual({ status: 200, body: {} });
    expect(received).toEqual(['GET', 'GET']);
    expect((await send(url, { method: 'POST', body: '{}' })).status).toBe(502);
    expect(received).toEqual(['GET', 'GET', 'POST']);
  });

  it('streams large bodies both ways, at the pace of the slower side', async () => {
    const ANSWER_BYTES = 8 * 1024 * 1024;
    const { url: service } = await listening(
      http.createServer((req, res) => {
        let uploaded = 0;
        req.on('data', (chunk: Buffer) => (uploaded += chunk.length));
        req.on('end', () => {
          res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'X-Uploaded': String(uploaded) });
          // Chunks as the socket takes them: the answer is never all in memory on either side.
          let sent = 0;
          const more = () => {
            while (sent < ANSWER_BYTES) {
              sent += 64 * 1024;
              if (!res.write(Buffer.alloc(64 * 1024, 1))) return void res.once('drain', more);
            }
            res.end();
          };
          more();
        });
      }),
    );
    const { url } = await gatewayFor({ urls: [service], responseTimeoutMs: 5000 });
    const upload = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let chunk = 0; chunk < 64; chunk += 1) controller.enqueue(new Uint8Array(64 * 1024));
        controller.close();
      },
    });
    const response = await fetch(`${url}/api/v4/things`, {
      method: 'PUT',
      body: upload,
      duplex: 'half',
      signal: AbortSignal.timeout(10_000),
    } as RequestInit);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-uploaded')).toBe(String(64 * 64 * 1024));
    let received = 0;
    for await (const chunk of response.body ?? []) {
      received += (chunk as Uint8Array).length;
      // A slow client: the gateway must wait for it rather than buffer the whole answer.
      if (received % (1024 * 1024) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(received).toBe(ANSWER_BYTES);
  });

  it("hands the service the gateway's trace context, not the one the client sent", async () => {
    const GATEWAY_TRACE = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    // Stands in for the SDK's W3C propagator, which writes the active span's context.
    const propagator: TextMapPropagator = {
      inject: (_context, carrier, setter) => setter.set(carrier, 'traceparent', GATEWAY_TRACE),
      extract: (context) => context,
      fields: () => ['traceparent'],
    };
    propagation.setGlobalPropagator(propagator);
    closers.push(async () => propagation.disable());
    const { url: service } = await listening(
      http.createServer((req, res) =>
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ traceparent: req.headers.traceparent })),
      ),
    );
    const { url } = await gatewayFor({ urls: [service] });
    const client = '00-11111111111111111111111111111111-2222222222222222-01';
    expect(await send(url, { headers: { traceparent: client } })).toEqual({ status: 200, body: { traceparent: GATEWAY_TRACE } });
  });

  it('balances between replicas and stops sending to one whose circuit opened', async () => {
    const first = await answeringService('first');
    const second = await answeringService('second');
    const { url, pool } = await gatewayFor({ urls: [first.url, second.url] });
    for (let index = 0; index < 10; index += 1) expect((await send(url)).status).toBe(200);
    expect([first.served.count, second.served.count]).toEqual([5, 5]);

    await new Promise<void>((resolve) => {
      first.server.closeAllConnections();
      first.server.close(() => resolve());
    });
    for (let index = 0; index < 10; index += 1) expect((await send(url)).status).toBe(200);
    expect(pool.circuits()[first.url]).toBe('open');
    expect(second.served.count).toBe(15);
  });
});

describe('a service with every connection busy', () => {
  it('is sent no further request; one waiting in the gateway past its timeout is answered 504 then', async () => {
    const held: http.ServerResponse[] = [];
    const reached: string[] = [];
    const { url: serviceUrl } = await listening(
      http.createServer((req, res) => {
        reached.push(req.url ?? '');
        if (req.url === '/api/v4/held') held.push(res);
        else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      }),
    );
    const pool = new UpstreamPool({
      service: 'test',
      logger,
      connectTimeoutMs: 500,
      responseTimeoutMs: 300,
      failuresToOpen: 3,
      halfOpenAfterMs: 500,
      urls: [serviceUrl],
    });
    closers.push(() => pool.close());
    // The held requests may wait for as long as the test takes; the others have the pool's 300 ms.
    const { url } = await listening(
      http.createServer((req, res) => void pool.forward(req, res, req.url === '/api/v4/held' ? { responseTimeoutMs: 30_000 } : {})),
    );
    const heldAnswers = Array.from({ length: CONNECTIONS_PER_ADDRESS }, () =>
      fetch(`${url}/api/v4/held`, { signal: AbortSignal.timeout(10_000) }).then((response) => response.status),
    );
    await waitFor(async () => held.length === CONNECTIONS_PER_ADDRESS || undefined, { what: 'every connection busy' });
    // Queued behind the busy connections: 504 at its timeout, not once a connection frees, and never sent.
    expect((await fetch(`${url}/api/v4/queued`, { signal: AbortSignal.timeout(5000) })).status).toBe(504);
    for (const res of held) res.writeHead(200).end();
    expect(await Promise.all(heldAnswers)).toEqual(heldAnswers.map(() => 200));
    expect((await fetch(`${url}/api/v4/after`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
    expect(reached.filter((path) => path !== '/api/v4/held')).toEqual(['/api/v4/after']);
  });
});

describe('a service answering an upload it did not read', () => {
  it('has its answer reach the client, and the gateway keeps serving', async () => {
    const service = await listening(
      http.createServer((_req, res) => res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"message":"401 Unauthorized"}')),
    );
    const pool = new UpstreamPool({
      service: 'test',
      logger,
      connectTimeoutMs: 500,
      responseTimeoutMs: 1000,
      failuresToOpen: 3,
      halfOpenAfterMs: 500,
      urls: [service.url],
    });
    const app = express();
    app.use((req, res) => void pool.forward(req, res));
    const gateway = await listen(app, 0, { drainTimeoutMs: 1000, drainQuietMs: 100 });
    closers.push(() => gateway.close());
    // Maven's way: the body follows 100 Continue, and is still on its way when the answer comes.
    const upload = () =>
      new Promise<number>((resolve, reject) => {
        const request = http.request({
          host: '127.0.0.1',
          port: gateway.port,
          path: '/api/v4/things',
          method: 'PUT',
          headers: { Expect: '100-continue', 'Content-Length': String(256 * 1024) },
          timeout: 5000,
        });
        request.on('continue', () => {
          request.write(Buffer.alloc(128 * 1024));
          setTimeout(() => request.end(Buffer.alloc(128 * 1024)), 50);
        });
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        request.on('timeout', () => request.destroy(new Error('hung')));
        request.on('error', reject);
        request.flushHeaders();
      });
    for (let attempt = 0; attempt < 3; attempt += 1) expect(await upload()).toBe(401);
    expect((await fetch(`http://127.0.0.1:${gateway.port}/api/v4/things`)).status).toBe(401);
  });
});

describe('a draining gateway', () => {
  it('closes the client connection after a proxied answer, though the service kept its own alive', async () => {
    const service = await answeringService('kept-alive');
    const pool = new UpstreamPool({
      service: 'test',
      logger,
      connectTimeoutMs: 500,
      responseTimeoutMs: 1000,
      failuresToOpen: 3,
      halfOpenAfterMs: 500,
      urls: [service.url],
    });
    const app = express();
    app.use((req, res) => void pool.forward(req, res));
    const gateway = await listen(app, 0, { drainTimeoutMs: 2000, drainQuietMs: 100 });
    const agent = new http.Agent({ keepAlive: true });
    const connectionHeader = () =>
      new Promise<string | undefined>((resolve, reject) =>
        http
          .get({ host: '127.0.0.1', port: gateway.port, path: '/api/v4/things', agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.headers.connection));
          })
          .on('error', reject),
      );
    try {
      expect(await connectionHeader()).toBe('keep-alive');
      const closed = gateway.close();
      expect(await connectionHeader()).toBe('close');
      await closed;
    } finally {
      agent.destroy();
    }
  });
});
