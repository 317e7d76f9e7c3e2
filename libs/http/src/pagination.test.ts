import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { decodeCursor, encodeCursor, pageParams, sendKeysetPage, sendPage } from './pagination.ts';

function appListing(total: number | null, hasNext = false) {
  const app = express();
  app.get('/api/v4/things', (req, res) => {
    const page = pageParams({ page: Number(req.query.page ?? 1), per_page: Number(req.query.per_page ?? 20) });
    sendPage(req, res, { page, total, hasNext, items: [] });
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

  it('never uses a forwarded host or scheme, which a client could have set', async () => {
    const response = await appListing(1)
      .get('/api/v4/things')
      .set('X-Forwarded-Host', 'gitlab.example.com')
      .set('X-Forwarded-Proto', 'https');
    expect(response.headers.link).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/api\/v4\/things\?page=1&per_page=20>; rel="first"/);
    expect(response.headers.link).not.toContain('gitlab.example.com');
  });
});

describe('lists too long to count', () => {
  it('omit X-Total, X-Total-Pages and the last link, and still link the next page', async () => {
    const response = await appListing(null, true).get('/api/v4/things?page=2&per_page=20').set('Host', 'platform.test');
    expect(response.headers['x-total']).toBeUndefined();
    expect(response.headers['x-total-pages']).toBeUndefined();
    expect(response.headers).toMatchObject({ 'x-page': '2', 'x-next-page': '3', 'x-prev-page': '1', 'x-per-page': '20' });
    expect(response.headers.link).toBe(
      [
        '<http://platform.test/api/v4/things?page=1&per_page=20>; rel="prev"',
        '<http://platform.test/api/v4/things?page=3&per_page=20>; rel="next"',
        '<http://platform.test/api/v4/things?page=1&per_page=20>; rel="first"',
      ].join(', '),
    );
  });

  it('have no next page once the rows run out', async () => {
    const response = await appListing(null, false).get('/api/v4/things?page=7');
    expect(response.headers['x-next-page']).toBe('');
    expect(response.headers.link).not.toMatch(/rel="(next|last)"/);
  });
});

describe('keyset pagination', () => {
  function keysetListing(items: Array<{ id: number }>, hasMore: boolean) {
    const app = express();
    app.get('/api/v4/things', (req, res) => sendKeysetPage(req, res, { perPage: 2, items, hasMore }));
    return request(app);
  }

  it('links the next page by a cursor after the last item, and nothing else', async () => {
    const response = await keysetListing([{ id: 4 }, { id: 9 }], true)
      .get('/api/v4/things?pagination=keyset&order_by=id&sort=asc&per_page=2')
      .set('Host', 'platform.test');
    const cursor = encodeCursor({ id: 9 });
    expect(response.headers.link).toBe(
      `<http://platform.test/api/v4/things?pagination=keyset&order_by=id&sort=asc&per_page=2&cursor=${cursor}>; rel="next"`,
    );
    expect(response.headers['x-total']).toBeUndefined();
    expect(decodeCursor(cursor)).toEqual({ id: 9 });
  });

  it('sends no link on the last page', async () => {
    const response = await keysetListing([{ id: 4 }], false).get('/api/v4/things?pagination=keyset');
    expect(response.headers.link).toBeUndefined();
  });

  it('rejects a cursor it did not issue, naming the parameter', () => {
    for (const bad of ['', 'not-base64!', Buffer.from('{"id":"x"}').toString('base64url'), Buffer.from('[]').toString('base64url')]) {
      expect(() => decodeCursor(bad)).toThrow('cursor is invalid');
    }
  });
});
