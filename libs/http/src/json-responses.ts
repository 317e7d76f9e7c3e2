import type { RequestHandler, Response } from 'express';

/** `res.set('Content-Type', ...)` appends this to every text type; GitLab's JSON types go without. */
const ADDED_CHARSET = /;\s*charset=utf-8$/i;

/**
 * JSON answers carry `Content-Type: application/json` exactly, as GitLab sends it: express would
 * add `; charset=utf-8`, and some clients compare the header literally. A JSON type set before
 * (`application/scim+json`) is kept, without the charset too.
 */
/** Drops the charset express appended to a JSON type a route set itself (a streamed JSON answer). */
export function dropAddedJsonCharset(res: Response): void {
  const given = res.get('Content-Type');
  if (given && /json/i.test(given)) res.setHeader('Content-Type', given.replace(ADDED_CHARSET, ''));
}

export function exactJsonContentType(): RequestHandler {
  return (_req, res, next) => {
    res.json = function json(this: Response, body: unknown) {
      const given = this.get('Content-Type');
      this.setHeader('Content-Type', given ? given.replace(ADDED_CHARSET, '') : 'application/json');
      // A Buffer is sent as it is: express adds a charset only to string bodies.
      return this.send(Buffer.from(JSON.stringify(body) ?? '', 'utf8'));
    };
    next();
  };
}
