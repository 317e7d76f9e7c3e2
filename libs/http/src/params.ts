import type { Request } from 'express';
import { z } from 'zod';
import { InputError } from '@platform/errors';
import type { UploadedFile } from './request-body.ts';

/**
 * GitLab accepts the same parameter in the query string, a form body or a JSON body;
 * path parameters win over both, as in Grape.
 */
export function requestParams(req: Request): Record<string, unknown> {
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
  return { ...(req.query as Record<string, unknown>), ...body, ...req.params };
}

/**
 * Every value a query parameter was given (`scope=a&scope=b`), in order, for the protocols that
 * mean all of them (a registry token's scopes), read off the raw query string as GitLab reads
 * them; among the request parameters a repeated key keeps only its last value.
 */
export function queryValues(req: Pick<Request, 'originalUrl'>, name: string): string[] {
  const queryStart = req.originalUrl.indexOf('?');
  return queryStart < 0 ? [] : new URLSearchParams(req.originalUrl.slice(queryStart + 1)).getAll(name);
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** `custom_attributes[key]`, as Grape names nested parameters. */
function paramName(path: PropertyKey[]): string {
  const [first, ...rest] = path.map(String);
  return `${first ?? 'params'}${rest.map((part) => `[${part}]`).join('')}`;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const name = paramName(issue.path);
  const absent = valueAt(input, issue.path) === undefined;
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value') && absent)
    return `${name} is missing`;
  if (issue.code === 'invalid_value') return `${name} does not have a valid value`;
  if (issue.code === 'too_big' && issue.origin === 'string') return `${name} is too long (maximum is ${issue.maximum} characters)`;
  if (issue.code === 'too_big' && issue.origin === 'array') return `${name} has too many items (maximum is ${issue.maximum})`;
  if (issue.code === 'custom') return `${name} ${issue.message}`;
  return `${name} is invalid`;
}

/** Validates request parameters, failing the way Grape does: 400 `{"error": "name is missing"}`. */
export function parseParams<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const messages = [...new Set(result.error.issues.map((issue) => describeIssue(issue, input)))];
  throw new InputError(messages.join(', '));
}

const integerPattern = /^-?\d+$/;
const TRUE_SPELLINGS = new Set(['true', '1', 'yes', 'y', 't', 'on']);
const FALSE_SPELLINGS = new Set(['false', '0', 'no', 'n', 'f', 'off']);

function commaList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

function integer() {
  return z.preprocess(
    (value) => (typeof value === 'string' && integerPattern.test(value.trim()) ? Number(value) : value),
    z.number().int().min(-2_147_483_648).max(2_147_483_647),
  );
}

/** Parameter types that accept both the JSON value and its query-string spelling. */
export const params = {
  integer,
  /** Grape's spellings, in any case: `true`/`false`, `1`/`0`, `yes`/`no`, `y`/`n`, `t`/`f`, `on`/`off`. */
  boolean: () =>
    z.preprocess((value) => {
      if (value === 1) return true;
      if (value === 0) return false;
      if (typeof value !== 'string') return value;
      const spelling = value.trim().toLowerCase();
      if (TRUE_SPELLINGS.has(spelling)) return true;
      if (FALSE_SPELLINGS.has(spelling)) return false;
      return value;
    }, z.boolean()),
  string: (maximum = 255) => z.string().max(maximum),
  /** ISO 8601 timestamps; a date alone counts as midnight UTC. */
  datetime: () =>
    z.preprocess((value) => {
      if (typeof value !== 'string') return value;
      const parsed = new Date(value);
      return Number.isNaN(parsed.getTime()) ? value : parsed;
    }, z.date()),
  /** An integer id or a URL-encoded full path, as project and group ids are given. */
  idOrPath: () =>
    z.preprocess(
      (value) => (typeof value === 'string' && integerPattern.test(value) ? Number(value) : value),
      z.union([z.number().int().positive(), z.string().min(1).max(2048)]),
    ),
  /** `ids[]=1&ids[]=2`, `ids=1,2` or a JSON array, as Grape accepts integer arrays. */
  integerList: (maximum = 1000) =>
    z.preprocess((value) => {
      if (typeof value === 'number') return [value];
      if (typeof value !== 'string') return value;
      const parts = commaList(value);
      // A malformed list stays a string, so the error names the parameter rather than an element.
      return parts.every((part) => integerPattern.test(part)) ? parts : value;
    }, z.array(integer()).max(maximum)),
  /** `topics[]=a&topics[]=b`, `topics=a,b` or a JSON array. */
  stringList: (maximum = 100) =>
    z.preprocess((value) => (typeof value === 'string' ? commaList(value) : value), z.array(z.string().max(255)).max(maximum)),
  /** A file from a multipart body (`avatar`, `file`). */
  file: () =>
    z.custom<UploadedFile>((value) => typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).content), {
      message: 'is invalid',
    }),
};

/** `params.integerList()` under its own name, as the route schemas import it. */
export const integerList = () => params.integerList();

/**
 * `YYYY-MM-DD`, as GitLab takes membership and share expiry dates, milestones' and issues' dates; a
 * timestamp (`2020-01-01T00:00:00Z`) is read as its date, as Ruby's `Date.parse` reads it.
 */
export const dateParam = () =>
  z
    .string()
    .transform((value) => /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(value)?.[1] ?? value)
    .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'is invalid' }))
    // A real calendar day: `2023-02-30` would otherwise roll over to March.
    .refine(
      (value) => {
        const parsed = new Date(`${value}T00:00:00Z`);
        return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
      },
      { message: 'is invalid' },
    );

/** `:id` of a project or group: an integer or a URL-encoded full path (express decodes it). */
export const idOrPathParams = z.object({ id: params.idOrPath() });

export const sortParam = () => z.enum(['asc', 'desc']);
