import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { pageParams, sendPage } from './pagination.ts';

function appListing(total: number) {
  const app = express();
  app.get('/api/v4/things', (req, res) => {
    const page = pageParams({ page: Number(req.query.page ?? 1), per_page: Number(req.query.per_page ?? 20) });
    sendPage(req, res, { page, total, items: [] });
  });
  return request(app);
}

describe('pageParams', () => {
  it('defaults to page 1 of 20 and clamps like GitLab', () => {
    expect(pageParams({})).toEqual({ page: 1, perPage: 20, offset: 0 });
    expect(pageParams({ page: 3, per_page: 10 })).toEqual({ page: 3, perPage: 10, offset: 20 });
    expect(pageParams({ page: 0, per_page: 1000 })).toEqual({ page: 1, perPage: 100, offset: 0 });
    expect(pageParams({ per_page: 0 }).perPage).toBe(20);
  });
});

describe('pagination headers', () => {
  it('sends GitLab headers and an RFC 5988 Link header with prev, next, first and last', async () => {
    const response = await appListing(45).get('/api/v4/things?page=2&per_page=20&search=x').set('Host', 'platform.test');
    expect(response.headers).toMatchObject({
      'x-total': '45',
      'x-total-pages': '3',
      'x-per-page': '20',
      'x-page': '2',
      'x-next-page': '3',
      'x-prev-page': '1',
    });
    expect(response.headers.link).toBe(
      [
        '<http://platform.test/api/v4/things?page=1&per_page=20&search=x>; rel="prev"',
        '<http://platform.test/api/v4/things?page=3&per_page=20&search=x>; rel="next"',
        '<http://platform.test/api/v4/things?page=1&per_page=20&search=x>; rel="first"',
        '<http://platform.test/api/v4/things?page=3&per_page=20&search=x>; rel="last"',
      ].join(', '),
    );
  });

  it('leaves next and prev empty at the ends, and counts an empty list as one page', async () => {
    const response = await appListing(0).get('/api/v4/things');
    expect(response.headers).toMatchObject({ 'x-total': '0', 'x-total-pages': '1', 'x-next-page': '', 'x-prev-page': '' });
    expect(response.headers.link).not.toMatch(/rel="(next|prev)"/);
  });

  it('uses the host and scheme the gateway forwarded', async () => {
    const response = await appListing(1)
      .get('/api/v4/things')
      .set('X-Forwarded-Host', 'gitlab.example.com')
      .set('X-Forwarded-Proto', 'https');
    expect(response.headers.link).toContain('<https://gitlab.example.com/api/v4/things?page=1&per_page=20>; rel="first"');
  });
});
