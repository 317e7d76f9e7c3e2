import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import express from 'express';
import { admission } from './admission.ts';
import type { AddressInfo } from 'node:net';

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** An app admitting two requests at once, whose `/api/slow/:name` requests wait until released. */
async function slowService() {
  const admitted = admission(2);
  const app = express();
  const started: string[] = [];
  const release = new Map<string, () => void>();
  app.use('/api', admitted);
  app.get('/api/slow/:name', (req, res) => {
    started.push(req.params.name);
    release.set(req.params.name, () => res.json({ name: req.params.name }));
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const connections = () =>
    new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
  return {
    admitted,
    started,
    release,
    connections,
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function get(port: number, path: string): { answer: Promise<number>; request: http.ClientRequest } {
  let request!: http.ClientRequest;
  const answer = new Promise<number>((resolve, reject) => {
    request = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    request.on('error', reject);
  });
  return { answer, request };
}

describe('admission', () => {
  it('works on at most its limit of requests at once; the others wait their turn in order', async () => {
    const { admitted, started, release, port, close } = await slowService();
    try {
      const answers = ['a', 'b', 'c', 'd'].map((name) => get(port, `/api/slow/${name}`).answer);
      await until(() => admitted.waiting === 2);
      expect(started).toEqual(['a', 'b']);
      release.get('b')!();
      await until(() => started.length === 3);
      expect(started).toEqual(['a', 'b', 'c']);
      expect(admitted.inProgress).toBe(2);
      release.get('a')!();
      await until(() => started.length === 4);
      release.get('c')!();
      release.get('d')!();
      expect(await Promise.all(answers)).toEqual([200, 200, 200, 200]);
    } finally {
      await close();
    }
  });

  it('starts a request that finds a free place and nobody waiting at once, in the same turn', () => {
    const admitted = admission(1);
    const res = Object.assign(new EventEmitter(), { closed: false });
    let started = false;
    admitted({ socket: { destroyed: false } } as never, res as never, () => {
      started = true;
    });
    expect(started).toBe(true);
    expect(admitted.inProgress).toBe(1);
    res.emit('close');
    expect(admitted.inProgress).toBe(0);
  });

  it('never starts a waiting request whose client has gone', async () => {
    const { admitted, started, release, port, close, connections } = await slowService();
    try {
      const first = get(port, '/api/slow/a');
      const second = get(port, '/api/slow/b');
      const abandoned = get(port, '/api/slow/abandoned');
      abandoned.answer.catch(() => undefined);
      const last = get(port, '/api/slow/last');
      await until(() => admitted.waiting === 2);
      abandoned.request.destroy();
      // The server has seen the abandoned request's connection close while the request waits.
      await until(async () => (await connections()) === 3);
      release.get('a')!();
      release.get('b')!();
      await until(() => started.length === 3);
      release.get('last')!();
      expect(await Promise.all([first.answer, second.answer, last.answer])).toEqual([200, 200, 200]);
      expect(started).toEqual(['a', 'b', 'last']);
      expect(admitted.inProgress + admitted.waiting).toBe(0);
    } finally {
      await close();
    }
  });
});
