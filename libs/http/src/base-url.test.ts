import { describe, expect, it } from '@jest/globals';
import { Router } from 'express';
import request from 'supertest';
import { createLogger } from '@platform/logger';
import { callerHeader } from '@platform/testing';
import { pageParams, sendPage } from './pagination.ts';
import { createServiceApp } from './service-app.ts';

const SECRET = 'base-url-test-secret';

function serviceWith(externalUrl?: string) {
  const router = Router();
  router.get('/api/v4/things', (req, res) => {
    sendPage(req, res, { page: pageParams({ page: 1, per_page: 1 }), total: 3, hasNext: true, items: [] });
  });
  return request(
    createServiceApp({
      logger: createLogger({ name: 'base-url-test', level: 'silent' }),
      internalSecret: SECRET,
      ...(externalUrl ? { externalUrl } : {}),
      readinessChecks: {},
      routes: [router],
    }),
  );
}

describe('links in responses', () => {
  it('are built from the configured external URL, whatever forwarding headers say', async () => {
    const response = await serviceWith('https://platform.example.com/')
      .get('/api/v4/things?per_page=1')
      .set(callerHeader({ kind: 'anonymous' }, SECRET))
      .set('X-Forwarded-Host', 'evil.example')
      .set('X-Forwarded-Proto', 'http');
    expect(response.status).toBe(200);
    expect(response.headers.link).toContain('<https://platform.example.com/api/v4/things?per_page=1&page=2>; rel="next"');
    expect(response.headers.link).not.toContain('evil.example');
  });

  it("point at the service's own address when it has no external URL, never at a forwarded host", async () => {
    const response = await serviceWith()
      .get('/api/v4/things?per_page=1')
      .set(callerHeader({ kind: 'anonymous' }, SECRET))
      .set('X-Forwarded-Host', 'evil.example');
    expect(response.headers.link).not.toContain('evil.example');
    expect(response.headers.link).toMatch(/<http:\/\/127\.0\.0\.1:\d+\/api\/v4\/things\?per_page=1&page=2>; rel="next"/);
  });
});
