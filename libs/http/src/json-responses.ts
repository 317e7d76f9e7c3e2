import type { RequestHandler, Response } from 'express';

/** `res.set('Content-Type', ...)` appends this to every text type; GitLab's JSON types go without. */
const ADDED_CHARSET = /;\s*charset=utf-8$/i;

/** Drops the charset express appended to a JSON type a route set itself (a streamed JSON answer). */
export function dropAddedJsonCharset(res: Response): void {
  const given = res.get('Content-Type');
  if (given && /json/i.test(given)) res.setHeader('Content-Type', given.replace(ADDED_CHARSET, ''));
}

/** `res.json` answering with the exact JSON type; one function for every response. */
function exactJson(this: Response, body: unknown): Response {
  const given = this.get('Content-Type');
  this.setHeader('Content-Type', given ? given.replace(ADDED_CHARSET, '') : 'application/json');
  // A Buffer is sent as it is: express adds a charset only to string bodies.
  return this.send(Buffer.from(JSON.stringify(body) ?? '', 'utf8'));
}

/**
 * JSON answers carry `Content-Type: application/json` exactly, as GitLab sends it: express would
 * add `; charset=utf-8`, and some clients compare the header literally. A JSON type set before
 * (`application/scim+json`) is kept, without the charset too.
 * `exactJsonContentType` is this step as a middleware.
 */
export function answerExactJson(res: Response): void {
  res.json = exactJson;
}

export function exactJsonContentType(): RequestHandler {
  return (_req, res, next) => {
    answerExactJson(res);
    next();
  };
}
