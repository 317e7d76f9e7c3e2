import type { RequestHandler, Response } from 'express';

/** `res.set('Content-Type', ...)` appends this to every text type; GitLab's JSON types go without. */
const ADDED_CHARSET = /;\s*charset=utf-8$/i;

/** Drops the charset express appended to a JSON type a route set itself (a streamed JSON answer). */
export function dropAddedJsonCharset(res: Response): void {
  const given = res.get('Content-Type');
  if (given && /json/i.test(given)) res.setHeader('Content-Type', given.replace(ADDED_CHARSET, ''));
}

/**
 * JSON text already written (by `JSON.stringify`, or by a statement: PostgreSQL's `json_build_object`
 * and `json_agg` cast to text) sent as its bytes, with the exact JSON type: a JSON type set before
 * is kept without the charset, else `application/json`.
 */
export function sendJsonText(res: Response, text: string): void {
  const given = res.get('Content-Type');
  res.setHeader('Content-Type', given ? given.replace(ADDED_CHARSET, '') : 'application/json');
  // A Buffer is sent as it is: express adds a charset only to string bodies.
  res.send(Buffer.from(text, 'utf8'));
}

/** `res.json` answering with the exact JSON type; one function for every response. */
function exactJson(this: Response, body: unknown): Response {
  sendJsonText(this, JSON.stringify(body) ?? '');
  return this;
}

/** JSON text a statement wrote, sent without parsing it: `jsonText(row.json)` as a route's result or a reply's body. */
export class JsonText {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

/**
 * A page's JSON array a statement wrote (`coalesce(json_agg(...), '[]')::text`), with what the
 * pagination headers need of it: how many items it holds (a full page may have a successor) and
 * the last one's id (a keyset page's cursor).
 */
export class JsonArrayText extends JsonText {
  readonly count: number;
  readonly lastId: number | undefined;

  constructor(text: string, count: number, lastId: number | undefined) {
    super(text);
    this.count = count;
    this.lastId = lastId;
  }
}

export function jsonText(text: string): JsonText {
  return new JsonText(text);
}

export function jsonArrayText(text: string, count: number, lastId?: number): JsonArrayText {
  return new JsonArrayText(text, count, lastId);
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
