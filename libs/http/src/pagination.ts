import type { Request, Response } from 'express';
import { z } from 'zod';
import { InputError } from '@platform/errors';
import { baseUrlOf } from './base-url.ts';
import { JsonArrayText, sendJsonText } from './json-responses.ts';
import { params } from './params.ts';

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;

/** `page` and `per_page` as a list endpoint receives them. */
export interface PageQuery {
  page?: number | undefined;
  per_page?: number | undefined;
}

/** `page` and `per_page`, to spread into a list endpoint's parameter schema. */
export const pageShape = {
  page: params.integer().optional(),
  per_page: params.integer().optional(),
};

/** GitLab clamps rather than rejects: a page below 1 is page 1, per_page above 100 is 100. */
export function pageParams(input: PageQuery): PageRequest {
  const page = Math.max(1, input.page ?? 1);
  const requested = input.per_page ?? DEFAULT_PER_PAGE;
  const perPage = requested < 1 ? DEFAULT_PER_PAGE : Math.min(requested, MAX_PER_PAGE);
  return { page, perPage, offset: (page - 1) * perPage };
}

function pageUrl(req: Request, changes: Record<string, string>): string {
  const url = new URL(req.originalUrl, baseUrlOf(req));
  for (const [name, value] of Object.entries(changes)) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * Sets GitLab's offset pagination headers: X-Total, X-Total-Pages, X-Per-Page, X-Page,
 * X-Next-Page, X-Prev-Page and Link. A null total (a list too long to count) omits X-Total,
 * X-Total-Pages and the `last` link, as GitLab does past 10,000 rows; `hasNext` then says
 * whether a next page exists.
 */
export function setPaginationHeaders(req: Request, res: Response, page: PageRequest, total: number | null, hasNext = false): void {
  const totalPages = total === null ? undefined : Math.max(1, Math.ceil(total / page.perPage));
  const next = (totalPages === undefined ? hasNext : page.page < totalPages) ? page.page + 1 : undefined;
  const prev = page.page > 1 ? Math.min(page.page - 1, totalPages ?? page.page - 1) : undefined;
  const link = (number: number) => pageUrl(req, { page: String(number), per_page: String(page.perPage) });
  const links: string[] = [];
  if (prev !== undefined) links.push(`<${link(prev)}>; rel="prev"`);
  if (next !== undefined) links.push(`<${link(next)}>; rel="next"`);
  links.push(`<${link(1)}>; rel="first"`);
  if (totalPages !== undefined) links.push(`<${link(totalPages)}>; rel="last"`);
  res.set({
    ...(total === null ? {} : { 'X-Total': String(total), 'X-Total-Pages': String(totalPages) }),
    'X-Per-Page': String(page.perPage),
    'X-Page': String(page.page),
    'X-Next-Page': next === undefined ? '' : String(next),
    'X-Prev-Page': prev === undefined ? '' : String(prev),
    Link: links.join(', '),
  });
}

export function sendPage<Item>(
  req: Request,
  res: Response,
  result: { page: PageRequest; total: number | null; hasNext?: boolean; items: Item[] | JsonArrayText },
): void {
  const { items } = result;
  const count = items instanceof JsonArrayText ? items.count : items.length;
  // Without a count, a full page is taken to have a successor unless the list said otherwise.
  setPaginationHeaders(req, res, result.page, result.total, result.hasNext ?? count >= result.page.perPage);
  if (items instanceof JsonArrayText) sendJsonText(res, items.text);
  else res.json(items);
}

/** GitLab's `pagination=keyset` and its opaque `cursor`, to spread into a list's parameter schema. */
export const keysetShape = {
  pagination: z.enum(['offset', 'keyset']).optional(),
  cursor: z.string().optional(),
};

/** The position a keyset cursor carries: the id of the last row of the previous page. */
export interface KeysetCursor {
  id: number;
}

export function encodeCursor(cursor: KeysetCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** A cursor this API issued; anything else is a 400 naming `cursor`. */
export function decodeCursor(value: string): KeysetCursor {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    const id = (decoded as { id?: unknown } | null)?.id;
    if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return { id };
  } catch {
    // Falls through to the error below.
  }
  throw new InputError('cursor is invalid');
}

/**
 * A keyset page: `Link: <...>; rel="next"` carries the cursor of the last item when more
 * follow; there are no totals or page numbers, as in GitLab.
 */
export function sendKeysetPage<Item extends { id: number }>(
  req: Request,
  res: Response,
  result: { perPage: number; items: Item[]; hasMore: boolean },
): void {
  res.set(keysetHeaders(req, { ...result, lastId: result.items.at(-1)?.id }));
  res.json(result.items);
}

/** The headers of a keyset page, for replies built elsewhere (route handlers). */
export function keysetHeaders(
  req: Request,
  result: { perPage: number; lastId: number | undefined; hasMore: boolean },
): Record<string, string> {
  const { lastId } = result;
  const headers: Record<string, string> = { 'X-Per-Page': String(result.perPage) };
  if (result.hasMore && lastId !== undefined) {
    headers.Link = `<${pageUrl(req, { cursor: encodeCursor({ id: lastId }), per_page: String(result.perPage) })}>; rel="next"`;
  }
  return headers;
}

/**
 * The keyset a list request asks for, or undefined for offset pagination. Keyset pages are
 * ordered by id only, as GitLab's are for these lists; another `order_by` is a 400 naming it.
 */
export function keysetOf(input: {
  pagination?: 'offset' | 'keyset' | undefined;
  cursor?: string | undefined;
  order_by?: string | undefined;
}): { afterId?: number } | undefined {
  if (input.pagination !== 'keyset') return undefined;
  if (input.order_by !== undefined && input.order_by !== 'id') throw new InputError('order_by does not have a valid value');
  return input.cursor === undefined ? {} : { afterId: decodeCursor(input.cursor).id };
}
