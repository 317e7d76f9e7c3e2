import { describe, expect, it } from '@jest/globals';
import http from 'node:http';
import { connect } from 'node:net';
import express from 'express';
import { isDraining, listen } from './listen.ts';

/** An app whose `/slow` requests wait until released. */
function slowApp() {
  const app = express();
  const waiting: Array<() => void> = [];
  app.get('/slow', (_req, res) => {
    waiting.push(() => res.json({ done: true }));
  });
  app.get('/-/readiness', (req, res) => {
    res.status(isDraining(req.app) ? 503 : 200).end();
  });
  return { app, waiting };
}

function get(port: number, path: string, agent: http.Agent): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      })
      .on('error', reject);
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('listen', () => {
  it('answers a request Node cannot parse with a GitLab body: a URL beyond the header limit, malformed HTTP', async () => {
    const server = await listen(express(), 0);
    try {
      const long = await fetch(`http://127.0.0.1:${server.port}/api/v4/users?search=${'x'.repeat(70_000)}`);
      expect(long.status).toBe(431);
      expect(await long.json()).toEqual({ message: '431 Request Header Fields Too Large' });
      const raw = await new Promise<string>((resolve, reject) => {
        let answer = '';
        const socket = connect(server.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(raw.endsWith('{"message":"400 Bad Request"}')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('serves a request listener that is not an express app, marking the drain in its locals', async () => {
    const plain = Object.assign((_req: http.IncomingMessage, res: http.ServerResponse) => void res.end('plain'), { locals: {} });
    const server = await listen(plain, 0);
    expect(await (await fetch(`http://127.0.0.1:${server.port}/anything`)).text()).toBe('plain');
    await server.close();
    expect(isDraining(plain)).toBe(true);
  });

  it('drains: readiness turns 503, requests in flight and late ones are served on connections closed after them', async () => {
    const { app, waiting } = slowApp();
    const server = await listen(app, 0, { drainQuietMs: 50 });
    const agent = new http.Agent({ keepAlive: true });
    expect((await get(server.port, '/-/readiness', agent)).status).toBe(200);
    const inFlight = get(server.port, '/slow', agent);
    await until(() => waiting.length === 1);

    const closed = server.close();
    expect(isDraining(app)).toBe(true);
    // Sent before a load balancer noticed: still answered, and its connection closed.
    expect(await get(server.port, '/-/readiness', agent)).toEqual({ status: 503, connection: 'close', body: '' });
    waiting[0]?.();
    expect(await inFlight).toEqual({ status: 200, connection: 'close', body: '{"done":true}' });
    await closed;
    await expect(get(server.port, '/-/readiness', new http.Agent())).rejects.toThrow('ECONNREFUSED');
    agent.destroy();
  });

  it('cuts requests that outlast the drain timeout', async () => {
    const { app, waiting } = slowApp();
    const server = await listen(app, 0, { drainTimeoutMs: 100 });
    const inFlight = get(server.port, '/slow', new http.Agent());
    await until(() => waiting.length === 1);
    await server.close();
    await expect(inFlight).rejects.toThrow('socket hang up');
  });
});

describe('listen, drained under constant load', () => {
  it('stops accepting by half the drain timeout and answers every request it accepted', async () => {
    const app = express();
    const requests = { received: 0, answered: 0 };
    app.get('/work', (_req, res) => {
      requests.received += 1;
      res.once('finish', () => (requests.answered += 1));
      setTimeout(() => res.json({ done: true }), 20);
    });
    const server = await listen(app, 0, { drainTimeoutMs: 1000, drainQuietMs: 100 });
    const outcomes = { served: 0, notAccepted: 0, failed: [] as string[] };
    let closed = false;
    // Clients that never pause, as if nothing took the server out of rotation.
    const client = async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (!closed) {
        try {
          const response = await get(server.port, '/work', agent);
          if (response.status === 200) outcomes.served += 1;
          else outcomes.failed.push(`status ${response.status}`);
        } catch (error) {
          // Refused, or reset while queued for an accept that never came once the listener closed.
          if (['ECONNREFUSED', 'ECONNRESET'].includes((error as NodeJS.ErrnoException).code ?? '')) outcomes.notAccepted += 1;
          else outcomes.failed.push(String(error));
        }
      }
      agent.destroy();
    };
    const clients = Array.from({ length: 4 }, client);
    await until(() => outcomes.served >= 8);
    await server.close();
    await until(() => outcomes.notAccepted > 0);
    closed = true;
    await Promise.all(clients);
    // Not one request that reached the server was cut: those in flight when the listener closed finished.
    expect(requests.answered).toBe(requests.received);
    expect(outcomes.failed).toEqual([]);
  });
});
