import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { finished, type Readable, type Transform } from 'node:stream';
import busboy from 'busboy';
import express, { type NextFunction, type Request, type RequestHandler } from 'express';
import qs from 'qs';
import getRawBody from 'raw-body';
import { HttpStatusError, INVALID_JSON_BODY } from './http-status-error.ts';
import { MAX_PARAM_DEPTH } from './malformed-input.ts';

export interface BodyLimits {
  /** JSON and URL-encoded bodies, in bytes. */
  bodyBytes: number;
  /** Parameters in a form, a multipart body or a query string. */
  fields: number;
  /** One multipart field's value, in bytes. */
  fieldBytes: number;
  /** Files in one multipart body. */
  files: number;
  /** One uploaded file, in bytes; features check their own, smaller limits (avatars: 200 KiB). */
  fileBytes: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = {
  bodyBytes: 1024 * 1024,
  fields: 1000,
  fieldBytes: 1024 * 1024,
  files: 10,
  fileBytes: 10 * 1024 * 1024,
};

/** What a request's route declares of its body. */
export interface DeclaredBody {
  /** A larger bound of its JSON and form bodies than the service's, in bytes. */
  bytes?: number;
  /** Set when the route drops its body: the only parameters taken from a JSON body. */
  keptParams?: readonly string[];
}

/** A file from a multipart body, as it appears among the request parameters. */
export interface UploadedFile {
  filename: string;
  /** What the client declared; never trusted for the file's type. */
  mimeType: string;
  content: Buffer;
}

const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_TYPE = 'application/x-www-form-urlencoded';
const MULTIPART_TYPE = 'multipart/form-data';
/** Bytes that no parser reads: left unread for the route to stream (a Maven deploy's files). */
const RAW_TYPE = 'application/octet-stream';

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** Grape's refusal of a body it has no parser for. */
function unsupportedContentType(): RequestHandler {
  return (req, _res, next) => {
    if (!hasBody(req) || !req.headers['content-type'] || req.is([...JSON_TYPES, FORM_TYPE, MULTIPART_TYPE, RAW_TYPE])) {
      next();
      return;
    }
    const mediaType = req.headers['content-type'].split(';')[0]?.trim() ?? '';
    const message = `The provided content-type '${mediaType}' is not supported.`;
    next(new HttpStatusError(415, message, { error: message }));
  };
}

function decompressed(req: Request): Readable {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') return req;
  const inflater = { gzip: createGunzip, deflate: createInflate, br: createBrotliDecompress }[encoding];
  if (!inflater) throw new HttpStatusError(415, `Unsupported content encoding "${encoding}"`);
  return req.pipe(inflater());
}

/**
 * URL-encoded parameters into nested ones, as Rack reads them: `ids[]=1&ids[]=2` is an array,
 * `not[labels]=x` a hash, and a key given more than once otherwise (`per_page=100&per_page=2`,
 * `weights[default]=60&weights[default]=70`) takes its last value.
 */
function parseEncodedParams(encoded: string, limits: Pick<BodyLimits, 'fields'>): Record<string, unknown> {
  try {
    return qs.parse(encoded, {
      depth: MAX_PARAM_DEPTH,
      strictDepth: true,
      // qs alone turns 21+ `ids[]` into an object.
      arrayLimit: limits.fields,
      parameterLimit: limits.fields,
      duplicates: 'last',
    });
  } catch (error) {
    if (error instanceof RangeError) throw new HttpStatusError(400, 'The parameters are nested too deeply');
    throw error;
  }
}

/** Form fields (`ids[]`, `not[labels]`) into nested parameters, as Rack reads them. */
export function nestParams(pairs: Array<[string, string]>, limits: Pick<BodyLimits, 'fields'>): Record<string, unknown> {
  return parseEncodedParams(new URLSearchParams(pairs).toString(), limits);
}

/** `multipart/form-data`, streamed through busboy with limits; files are kept in memory, bounded. */
function multipart(limits: BodyLimits): RequestHandler {
  return (req, _res, next) => {
    if (!hasBody(req) || !req.is(MULTIPART_TYPE)) {
      next();
      return;
    }
    let parser: busboy.Busboy;
    let source: Readable;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          fields: limits.fields,
          fieldSize: limits.fieldBytes,
          files: limits.files,
          fileSize: limits.fileBytes,
          parts: limits.fields + limits.files,
        },
      });
      source = decompressed(req);
    } catch (error) {
      next(error instanceof HttpStatusError ? error : new HttpStatusError(400, 'The multipart body has no boundary'));
      return;
    }
    const fields: Array<[string, string]> = [];
    const files: Array<[string, UploadedFile]> = [];
    let settled = false;
    const fail = (error: HttpStatusError) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      if (source !== req) req.unpipe(source as Transform);
      // Read and discard the rest, so the client gets the answer instead of a reset connection.
      req.resume();
      next(error);
    };
    const tooLarge = () => fail(new HttpStatusError(413, 'Request Entity Too Large'));
    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) tooLarge();
      else fields.push([name, value]);
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', tooLarge);
      stream.on('close', () => {
        if (!stream.truncated)
          files.push([name, { filename: info.filename ?? '', mimeType: info.mimeType, content: Buffer.concat(chunks) }]);
      });
    });
    parser.on('fieldsLimit', tooLarge);
    parser.on('filesLimit', tooLarge);
    parser.on('partsLimit', tooLarge);
    parser.on('error', () => fail(new HttpStatusError(400, 'The multipart body is malformed')));
    source.on('error', () => fail(new HttpStatusError(400, 'The request body does not match its Content-Encoding')));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      try {
        const body: Record<string, unknown> = nestParams(fields, limits);
        for (const [name, file] of files) body[name] = file;
        req.body = body;
        next();
      } catch (error) {
        next(error);
      }
    });
    source.pipe(parser);
  };
}

/**
 * Reads request bodies the way Grape does, for every service: JSON (`application/*+json` too),
 * URL-encoded and multipart forms with nested keys; `application/octet-stream` and bodies without
 * a type stay unread for the route; anything else with a body is 415. Failures
 * carry their 4xx status for `errorToHttp`: too large 413, malformed 400, unknown charset 415.
 * `declaredBody` says what the request's route declares of its body: a larger bound of JSON and
 * form bodies (a file's content), or that it drops the body, keeping only some parameters of it.
 */
export function requestBodies(
  limits: BodyLimits = DEFAULT_BODY_LIMITS,
  declaredBody: (req: Request) => DeclaredBody | undefined = () => undefined,
): RequestHandler {
  const bounded = (parserOf: (bytes: number) => RequestHandler): RequestHandler => {
    const parsers = new Map<number, RequestHandler>();
    return (req, res, next) => {
      const bytes = declaredBody(req)?.bytes ?? limits.bodyBytes;
      const parser = parsers.get(bytes) ?? parserOf(bytes);
      parsers.set(bytes, parser);
      parser(req, res, next);
    };
  };
  const parsers = inSequence([
    unsupportedContentType(),
    // Not strict: a bare JSON string is a body too (npm's dist-tag PUT sends the version as one);
    // a route that takes one reads it from the request, parameters come only from objects.
    bounded((bytes) => express.json({ limit: bytes, type: JSON_TYPES, strict: false })),
    ...urlEncodedForm(
      limits,
      bounded((bytes) => express.text({ type: FORM_TYPE, limit: bytes })),
    ),
    multipart(limits),
  ]);
  // Every parser passes over a request without a body (a GET): it skips them all at once.
  return (req, res, next) => {
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) {
      next();
      return;
    }
    const declared = declaredBody(req);
    if (declared?.keptParams && isPlainJson(req))
      keptJsonParams(req, { bytes: declared.bytes ?? limits.bodyBytes, keep: declared.keptParams }, next);
    else parsers(req, res, next);
  };
}

/** JSON in UTF-8, not compressed: what SDKs send, and all that `keptJsonParams` reads; other bodies take the parsers. */
const PLAIN_JSON_TYPE = /^application\/json\s*(?:;\s*charset="?utf-8"?\s*)?$/i;

function isPlainJson(req: Request): boolean {
  const encoding = req.headers['content-encoding'];
  return PLAIN_JSON_TYPE.test(req.headers['content-type'] ?? '') && (encoding === undefined || encoding.toLowerCase() === 'identity');
}

/**
 * The body of a route that drops it: read within `bytes`, refused as the JSON parser refuses it
 * (too large 413, not JSON 400, after reading off the rest), and only the `keep` parameters of it
 * set as the request's body. Nothing else of it becomes a parameter, so nothing else is checked.
 */
function keptJsonParams(req: Request, bound: { bytes: number; keep: readonly string[] }, next: NextFunction): void {
  getRawBody(req, { length: req.headers['content-length'] ?? null, limit: bound.bytes }, (error, raw) => {
    if (error) {
      // Read off the rest, so that the client gets the answer rather than a reset connection.
      finished(req, () => next(error));
      req.resume();
      return;
    }
    const text = raw.toString('utf8');
    let value: unknown;
    try {
      // As the JSON parser reads it: an empty body is no parameters, a byte order mark is dropped.
      value = text.length === 0 ? {} : JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      next(new HttpStatusError(400, INVALID_JSON_BODY.error, INVALID_JSON_BODY));
      return;
    }
    const kept: Record<string, unknown> = {};
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const name of bound.keep) if (Object.hasOwn(value, name)) kept[name] = (value as Record<string, unknown>)[name];
    }
    req.body = kept;
    next();
  });
}

/** `handlers` one after the other, as express would run them, stopping at the first error. */
function inSequence(handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      const handler = handlers[index++];
      if (error !== undefined && error !== null) next(error);
      else if (handler === undefined) next();
      else {
        try {
          handler(req, res, step);
        } catch (thrown) {
          next(thrown);
        }
      }
    };
    step();
  };
}

/**
 * URL-encoded forms, read as text and parsed exactly as query strings are (a repeated key takes its
 * last value): express.urlencoded's own parser would combine repeated keys into an array.
 */
function urlEncodedForm(limits: BodyLimits, readText: RequestHandler): RequestHandler[] {
  const parse = parseQueryString(limits);
  return [
    (req, _res, next) => {
      const charset = req.is(FORM_TYPE) ? /;\s*charset=([^;]+)/i.exec(req.headers['content-type'] ?? '')?.[1] : undefined;
      const name = charset?.trim().replace(/^"|"$/g, '').toLowerCase();
      if (name !== undefined && name !== 'utf-8' && name !== 'utf8') {
        next(new HttpStatusError(415, `unsupported charset "${name.toUpperCase()}"`));
        return;
      }
      next();
    },
    readText,
    (req, _res, next) => {
      if (typeof req.body !== 'string' || !req.is(FORM_TYPE)) {
        next();
        return;
      }
      try {
        req.body = parse(req.body);
        next();
      } catch (error) {
        next(error);
      }
    },
  ];
}

/** Query strings parsed with the same nesting and limits as forms. */
export function parseQueryString(
  limits: Pick<BodyLimits, 'fields'> = DEFAULT_BODY_LIMITS,
): (query: string | null) => Record<string, unknown> {
  return (query) => {
    if (!query) return {};
    const count = query.split('&').length;
    if (count > limits.fields) throw new HttpStatusError(413, 'Too many parameters');
    return parseEncodedParams(query, limits);
  };
}
