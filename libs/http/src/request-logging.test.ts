import { describe, expect, it, jest } from '@jest/globals';
import { createServer, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import express from 'express';
import { createLogger } from '@platform/logger';
import request from 'supertest';
import { requestLogging } from './request-logging.ts';

function appLoggingTo(lines: string[], level = 'info') {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = express();
  app.disable('x-powered-by');
  const logger = createLogger({ name: 'test', level, destination: sink });
  app.use(requestLogging(logger));
  app.get('/deep', (_req, res) => {
    // Logged from inside the handler, with no request in scope: the id comes along by itself.
    setImmediate(() => {
      logger.warn('something worth knowing');
      res.json({});
    });
  });
  app.get('/whole-head', (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  app.get('/{*path}', (_req, res) => void res.json({}));
  return request(app);
}

describe('requestLogging', () => {
  it("echoes the caller's request id, or makes one", async () => {
    const lines: string[] = [];
    const given = await appLoggingTo(lines).get('/api/v4/user').set('X-Request-Id', 'abc-123');
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await appLoggingTo(lines).get('/api/v4/user');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('writes the id among the headers of a head given whole, setting none ahead of it', async () => {
    const setHeader = jest.spyOn(ServerResponse.prototype, 'setHeader');
    try {
      const answer = await appLoggingTo([]).get('/whole-head').set('X-Request-Id', 'whole-1');
      expect(answer.headers['x-request-id']).toBe('whole-1');
      expect(answer.headers['content-type']).toBe('application/json');
      expect(setHeader).not.toHaveBeenCalled();
    } finally {
      setHeader.mockRestore();
    }
  });

  it('logs one line per request without the credentials in its query string', async () => {
    const lines: string[] = [];
    await appLoggingTo(lines).get('/api/v4/user?private_token=glpat-secret&page=2').set('X-Request-Id', 'r1');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '{}');
    expect(line).toMatchObject({ reqId: 'r1', method: 'GET', status: 200, url: '/api/v4/user?private_token=[redacted]&page=2' });
    expect(lines[0]).not.toContain('glpat-secret');
  });

  it('stamps the request id on every line logged while handling the request', async () => {
    const lines: string[] = [];
    await appLoggingTo(lines, 'warn').get('/deep').set('X-Request-Id', 'r2');
    expect(lines.map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ reqId: 'r2', msg: 'something worth knowing' })]);
  });

  it("runs on Node's request and response, in front of express (the gateway's listener)", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logRequest = requestLogging(createLogger({ name: 'test', level: 'info', destination: sink }));
    const server = createServer((req, res) => logRequest(req, res, () => void res.writeHead(204).end()));
    const answer = await request(server).get('/api/v4/user?access_token=glpat-secret').set('X-Request-Id', 'plain-1');
    expect(answer.headers['x-request-id']).toBe('plain-1');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ reqId: 'plain-1', status: 204, url: '/api/v4/user?access_token=[redacted]' }),
    ]);
  });

  it('stays quiet for health probes and below info level', async () => {
    const lines: string[] = [];
    await appLoggingTo(lines).get('/-/health');
    await appLoggingTo(lines, 'warn').get('/api/v4/user');
    expect(lines).toEqual([]);
  });
});
