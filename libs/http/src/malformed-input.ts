import type { RequestHandler } from 'express';
import { HttpStatusError } from './http-status-error.ts';

/** Deeper parameters than this are refused rather than parsed (Rack's limit is 32 too). */
export const MAX_PARAM_DEPTH = 32;

function decodeComponent(encoded: string, plusIsSpace: boolean): string | undefined {
  try {
    return decodeURIComponent(plusIsSpace ? encoded.replaceAll('+', ' ') : encoded);
  } catch {
    return undefined;
  }
}

/**
 * Refuses URLs that cannot be decoded or that decode to a NUL byte, before anything reads them:
 * PostgreSQL rejects NUL in text, and the router would fail on `%ZZ` deep inside a handler.
 */
export function malformedUrlError(url: string): HttpStatusError | undefined {
  // Most URLs encode nothing: without a `%` nothing can fail to decode or decode to NUL.
  if (!url.includes('%') && !url.includes('\0')) return undefined;
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  const decodedPath = decodeComponent(path, false);
  if (decodedPath === undefined) return new HttpStatusError(400, 'Invalid percent-encoding in the path');
  if (decodedPath.includes('\0')) return new HttpStatusError(400, 'Invalid null byte in the path');
  if (queryStart < 0) return undefined;
  for (const pair of url.slice(queryStart + 1).split('&')) {
    const decoded = decodeComponent(pair, true);
    if (decoded === undefined) return new HttpStatusError(400, 'Invalid percent-encoding in the query string');
    if (decoded.includes('\0')) return new HttpStatusError(400, 'Invalid null byte in the query string');
  }
  return undefined;
}

export function rejectMalformedUrl(): RequestHandler {
  return (req, _res, next) => {
    next(malformedUrlError(req.originalUrl));
  };
}

function isUpload(value: object): boolean {
  return Buffer.isBuffer((value as { content?: unknown }).content);
}

/** The problem with parsed parameters that must never reach a handler: NUL bytes or deep nesting. */
export function malformedParamsError(value: unknown, depth = 0): HttpStatusError | undefined {
  if (typeof value === 'string') {
    return value.includes('\0') ? new HttpStatusError(400, 'Invalid null byte in the parameters') : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > MAX_PARAM_DEPTH) return new HttpStatusError(400, 'The parameters are nested too deeply');
  if (isUpload(value)) return malformedParamsError((value as { filename?: unknown }).filename, depth + 1);
  for (const [key, item] of Object.entries(value)) {
    const problem = malformedParamsError(key, depth) ?? malformedParamsError(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** Checks the parsed query and body; runs after the body parsers. */
export function rejectMalformedParams(): RequestHandler {
  return (req, _res, next) => {
    try {
      next(malformedParamsError(req.query) ?? malformedParamsError(req.body));
    } catch (error) {
      // The query string is parsed lazily, on first read: a parse failure surfaces here.
      next(error);
    }
  };
}
