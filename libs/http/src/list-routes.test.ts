import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import request from 'supertest';
import { createLogger } from '@platform/logger';
import { callerHeader } from '@platform/testing';
import { jsonArrayText } from './json-responses.ts';
import { encodeCursor } from './pagination.ts';
import { createRouter, routeCatalogue, routesOf } from './routes.ts';
import { createServiceApp } from './service-app.ts';

const SECRET = 'list-routes-test-secret';
interface Widget {
  id: number;
  name: string;
}
const WIDGETS: Widget[] = [1, 2, 3, 4, 5].map((id) => ({ id, name: `widget-${6 - id}` }));
const route = routesOf<{ widgets: Widget[] }>('list-test');

const ORDERS = ['id', 'name'] as const;

const widgetRoutes = [
  route.list({
    path: '/api/v4/widgets',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ search: z.string().max(20).optional() }),
    order: { by: ORDERS, default: 'id', sort: 'asc' },
    keyset: true,
    handle: async ({ input, deps, window, order, keyset }) => {
      const matching = deps.widgets.filter((widget) => widget.name.includes(input.search ?? ''));
      const sorted = [...matching].sort((a, b) => (order.by === 'name' ? a.name.localeCompare(b.name) : a.id - b.id));
      if (order.sort === 'desc') sorted.reverse();
      if (keyset) {
        const after = keyset.afterId === undefined ? sorted : sorted.filter((widget) => widget.id > (keyset.afterId ?? 0));
        return { items: after.slice(0, keyset.limit), hasNext: after.length > keyset.limit };
      }
      return { items: sorted.slice(window.offset, window.offset + window.limit), total: sorted.length };
    },
  }),
  route.list({
    path: '/api/v4/widgets/written',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({}),
    keyset: true,
    // The page's array as a statement writes it (`json_agg(...)::text`), with its count and last id.
    handle: async ({ deps, window, keyset }) => {
      const from = keyset ? deps.widgets.findIndex((widget) => widget.id > (keyset.afterId ?? 0)) : window.offset;
      const limit = keyset ? keyset.limit : window.limit;
      const items = deps.widgets.slice(from, from + limit);
      const text = `[${items.map((widget) => `{"id" : ${widget.id}}`).join(', \n ')}]`;
      const page = jsonArrayText(text, items.length, items.at(-1)?.id);
      return keyset ? { items: page, hasNext: from + limit < deps.widgets.length } : { items: page, total: null };
    },
  }),
  route.list({
    path: '/api/v4/widgets/:id/parts',
    access: 'anonymous',
    scope: 'read_api',
    // A refined schema keeps its refinement.
    input: z.object({ id: z.string(), from: z.string().optional(), to: z.string().optional() }).superRefine((value, context) => {
      if (value.to !== undefined && value.from === undefined) context.addIssue({ code: 'custom', path: ['from'], message: 'is missing' });
    }),
    handle: async ({ input, window, order, keyset }) => ({
      items: [{ owner: input.id, window, order: order ?? null, keyset: keyset ?? null }],
      total: null,
      hasNext: true,
    }),
  }),
];

const app = request(
  createServiceApp({
    logger: createLogger({ name: 'list-routes-test', level: 'silent' }),
    internalSecret: SECRET,
    readinessChecks: {},
    routes: [createRouter(widgetRoutes, { widgets: WIDGETS })],
  }),
);
const anonymous = callerHeader({ kind: 'anonymous' }, SECRET);

describe('list routes', () => {
  it('declares a GET route whose input carries the list parameters, in the catalogue', () => {
    const entry = routeCatalogue().find((candidate) => candidate.service === 'list-test' && candidate.path === '/api/v4/widgets');
    expect(entry?.method).toBe('GET');
    expect(Object.keys((entry?.input as z.ZodObject).shape).sort()).toEqual(
      ['cursor', 'order_by', 'page', 'pagination', 'per_page', 'search', 'sort'].sort(),
    );
  });

  it('pages with offsets, applies the order and its defaults, and sets GitLab headers', async () => {
    const first = await app.get('/api/v4/widgets?per_page=2').set(anonymous);
    expect(first.body.map((widget: Widget) => widget.id)).toEqual([1, 2]);
    expect(first.headers).toMatchObject({ 'x-total': '5', 'x-total-pages': '3', 'x-page': '1', 'x-per-page': '2', 'x-next-page': '2' });
    expect(first.headers.link).toContain('rel="last"');
    const byName = await app.get('/api/v4/widgets?order_by=name&sort=desc&per_page=2&page=2').set(anonymous);
    expect(byName.body.map((widget: Widget) => widget.name)).toEqual(['widget-3', 'widget-2']);
    expect(byName.headers).toMatchObject({ 'x-page': '2', 'x-prev-page': '1', 'x-next-page': '3' });
  });

  it('takes the last of a repeated list parameter, as GitLab does', async () => {
    const response = await app.get('/api/v4/widgets?per_page=100&per_page=2&order_by=name&order_by=id').set(anonymous);
    expect(response.status).toBe(200);
    expect(response.body.map((widget: Widget) => widget.id)).toEqual([1, 2]);
    expect(response.headers['x-per-page']).toBe('2');
  });

  it('answers 400 naming a bad order_by, sort or page parameter', async () => {
    expect((await app.get('/api/v4/widgets?order_by=colour').set(anonymous)).body).toEqual({
      error: 'order_by does not have a valid value',
    });
    expect((await app.get('/api/v4/widgets?sort=up').set(anonymous)).body).toEqual({ error: 'sort does not have a valid value' });
    expect((await app.get('/api/v4/widgets?page=x').set(anonymous)).body).toEqual({ error: 'page is invalid' });
  });

  it('pages with keysets: a Link with the next cursor while more follow, no totals', async () => {
    const first = await app.get('/api/v4/widgets?pagination=keyset&per_page=2').set(anonymous);
    expect(first.body.map((widget: Widget) => widget.id)).toEqual([1, 2]);
    expect(first.headers['x-total']).toBeUndefined();
    expect(first.headers.link).toContain(`cursor=${encodeCursor({ id: 2 })}`);
    const last = await app.get(`/api/v4/widgets?pagination=keyset&per_page=2&cursor=${encodeCursor({ id: 4 })}`).set(anonymous);
    expect(last.body.map((widget: Widget) => widget.id)).toEqual([5]);
    expect(last.headers.link).toBeUndefined();
    expect((await app.get('/api/v4/widgets?pagination=keyset&order_by=name').set(anonymous)).body).toEqual({
      error: 'order_by does not have a valid value',
    });
    expect((await app.get('/api/v4/widgets?pagination=keyset&cursor=nonsense').set(anonymous)).body).toEqual({
      error: 'cursor is invalid',
    });
  });

  it('sends a page whose JSON array a statement wrote as its bytes, with the headers its count and last id give', async () => {
    const offset = await app.get('/api/v4/widgets/written?per_page=2&page=2').set(anonymous);
    expect(offset.text).toBe('[{"id" : 3}, \n {"id" : 4}]');
    expect(offset.headers['content-type']).toBe('application/json');
    // No total: a full page is taken to have a successor.
    expect(offset.headers).toMatchObject({ 'x-page': '2', 'x-next-page': '3', 'x-prev-page': '1' });
    expect((await app.get('/api/v4/widgets/written?per_page=2&page=3').set(anonymous)).headers['x-next-page']).toBe('');
    const keyset = await app.get(`/api/v4/widgets/written?pagination=keyset&per_page=2&cursor=${encodeCursor({ id: 1 })}`).set(anonymous);
    expect(keyset.text).toBe('[{"id" : 2}, \n {"id" : 3}]');
    expect(keyset.headers.link).toContain(`cursor=${encodeCursor({ id: 3 })}`);
  });

  it('keeps the refinements of the route schema; a list without order or keyset gets neither', async () => {
    expect((await app.get('/api/v4/widgets/7/parts?to=2026-01-01').set(anonymous)).body).toEqual({ error: 'from is missing' });
    const parts = await app.get('/api/v4/widgets/7/parts?page=3&per_page=10&pagination=keyset&order_by=id').set(anonymous);
    expect(parts.body).toEqual([{ owner: '7', window: { offset: 20, limit: 10 }, order: null, keyset: null }]);
    // No total: no X-Total, and the next page is known from `hasNext`.
    expect(parts.headers['x-total']).toBeUndefined();
    expect(parts.headers['x-next-page']).toBe('4');
  });
});
