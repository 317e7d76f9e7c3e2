import type { Request } from 'express';
import { z } from 'zod';
import { InputError } from '@platform/errors';

/**
 * GitLab accepts the same parameter in the query string, a form body or a JSON body;
 * path parameters win over both, as in Grape.
 */
export function requestParams(req: Request): Record<string, unknown> {
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
  return { ...(req.query as Record<string, unknown>), ...body, ...req.params };
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
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) return `${name} is missing`;
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

/** Parameter types that accept both the JSON value and its query-string spelling. */
export const params = {
  integer: () =>
    z.preprocess(
      (value) => (typeof value === 'string' && integerPattern.test(value.trim()) ? Number(value) : value),
      z.number().int().min(-2_147_483_648).max(2_147_483_647),
    ),
  boolean: () =>
    z.preprocess((value) => {
      if (value === 'true' || value === '1' || value === 1) return true;
      if (value === 'false' || value === '0' || value === 0) return false;
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
};

/** `ids[]=1&ids[]=2`, `ids=1,2` or a JSON array, as Grape accepts integer arrays. */
export function integerList() {
  return z.preprocess((value) => {
    if (typeof value === 'number') return [value];
    if (typeof value !== 'string') return value;
    const parts = value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    // A malformed list stays a string, so the error names the parameter rather than an element.
    return parts.every((part) => /^-?\d+$/.test(part)) ? parts : value;
  }, z.array(params.integer()).max(1000));
}

/** `YYYY-MM-DD`, as GitLab takes membership and share expiry dates. */
export const dateParam = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'is invalid' })
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
