import type { Request, Response } from 'express';
import { baseUrlOf } from './base-url.ts';
import { params } from './params.ts';

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;

/** `page` and `per_page`, to spread into a list endpoint's parameter schema. */
export const pageShape = {
  page: params.integer().optional(),
  per_page: params.integer().optional(),
};

/** GitLab clamps rather than rejects: a page below 1 is page 1, per_page above 100 is 100. */
export function pageParams(input: { page?: number | undefined; per_page?: number | undefined }): PageRequest {
  const page = Math.max(1, input.page ?? 1);
  const requested = input.per_page ?? DEFAULT_PER_PAGE;
  const perPage = requested < 1 ? DEFAULT_PER_PAGE : Math.min(requested, MAX_PER_PAGE);
  return { page, perPage, offset: (page - 1) * perPage };
}

function pageUrl(req: Request, page: number, perPage: number): string {
  const url = new URL(req.originalUrl, baseUrlOf(req));
  url.searchParams.set('page', String(page));
  url.searchParams.set('per_page', String(perPage));
  return url.toString();
}

/** Sets GitLab's offset pagination headers: X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page and Link. */
export function setPaginationHeaders(req: Request, res: Response, page: PageRequest, total: number): void {
  const totalPages = Math.max(1, Math.ceil(total / page.perPage));
  const next = page.page < totalPages ? page.page + 1 : undefined;
  const prev = page.page > 1 ? Math.min(page.page - 1, totalPages) : undefined;
  const links: string[] = [];
  if (prev !== undefined) links.push(`<${pageUrl(req, prev, page.perPage)}>; rel="prev"`);
  if (next !== undefined) links.push(`<${pageUrl(req, next, page.perPage)}>; rel="next"`);
  links.push(`<${pageUrl(req, 1, page.perPage)}>; rel="first"`);
  links.push(`<${pageUrl(req, totalPages, page.perPage)}>; rel="last"`);
  res.set({
    'X-Total': String(total),
    'X-Total-Pages': String(totalPages),
    'X-Per-Page': String(page.perPage),
    'X-Page': String(page.page),
    'X-Next-Page': next === undefined ? '' : String(next),
    'X-Prev-Page': prev === undefined ? '' : String(prev),
    Link: links.join(', '),
  });
}

export function sendPage<Item>(req: Request, res: Response, result: { page: PageRequest; total: number; items: Item[] }): void {
  setPaginationHeaders(req, res, result.page, result.total);
  res.json(result.items);
}
