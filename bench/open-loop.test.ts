import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { dueBy, dueOffsetMs, openLoop, percentile, requestCount, verdict, type OpenLoopRequest, type OpenLoopResult } from './open-loop.ts';

describe('open-loop scheduling', () => {
  it('spaces requests evenly at the rate instead of bursting each second', () => {
    expect([0, 1, 2, 199, 200].map((index) => dueOffsetMs(index, 200))).toEqual([0, 5, 10, 995, 1000]);
    expect(dueOffsetMs(3, 2000)).toBe(1.5);
    expect(requestCount(200, 10)).toBe(2000);
    expect(requestCount(333, 0.5)).toBe(166);
  });

  it('sends every request that has come due, and only those', () => {
    expect(dueBy(0, 0, 100, 200)).toBe(1);
    expect(dueBy(4.9, 1, 100, 200)).toBe(1);
    expect(dueBy(25, 1, 100, 200)).toBe(6);
    // A late tick catches up on everything overdue, never past the last request.
    expect(dueBy(10_000, 6, 100, 200)).toBe(100);
  });

  it('takes nearest-rank percentiles', () => {
    const sorted = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.9)).toBe(90);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile([], 0.9)).toBe(0);
  });

  it('passes like the GitLab Performance Tool: rate, success and p90', () => {
    const run: OpenLoopResult = {
      rate: 100,
      durationSeconds: 10,
      sent: 1000,
      ok: 1000,
      non2xx: 0,
      errors: 0,
      achievedRate: 100,
      p50: 3,
      p90: 5,
      p99: 9,
      max: 12,
    };
    expect(verdict(run, 25).pass).toBe(true);
    expect(verdict({ ...run, achievedRate: 79 }, 25).reasons).toEqual(['achieved 79/s < 0.8 x 100/s']);
    expect(verdict({ ...run, ok: 999, non2xx: 1 }, 25).pass).toBe(false);
    expect(verdict({ ...run, p90: 26 }, 25).reasons).toEqual(['p90 26 ms > 25 ms']);
  });

  it('sends each request of a mix as it is given, and counts a 304 to a conditional request as answered', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${req.headers['if-none-match'] ?? '-'} ${body || '-'}`);
        res.writeHead(req.headers['if-none-match'] === '"v1"' ? 304 : req.method === 'POST' ? 202 : 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const result = await openLoop({
        url: `http://127.0.0.1:${port}/api`,
        request: (index): OpenLoopRequest =>
          index === 2
            ? { method: 'POST', path: '/api/metrics', headers: { 'Content-Type': 'application/json' }, body: '{"n":2}' }
            : { method: 'GET', path: '/api/features', headers: index === 0 ? {} : { 'If-None-Match': '"v1"' } },
        rate: 100,
        durationSeconds: 0.03,
      });
      expect(seen.sort()).toEqual(['GET /api/features "v1" -', 'GET /api/features - -', 'POST /api/metrics - {"n":2}']);
      expect({ sent: result.sent, ok: result.ok, non2xx: result.non2xx, errors: result.errors }).toEqual({
        sent: 3,
        ok: 3,
        non2xx: 0,
        errors: 0,
      });
    } finally {
      server.close();
    }
  });
});
