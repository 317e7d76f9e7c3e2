/**
 * The kinds of value an application setting takes, as zod schemas accepting both the JSON value
 * and its query-string or form spelling (GitLab's Grape coercions). A refusal names the setting:
 * `{"error":"first_day_of_week does not have a valid value"}`.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { params } from '@platform/http';

const INVALID = { message: 'does not have a valid value' };
const MAX_INT = 2_147_483_647;

/** An integer from `min` to `max`. */
export const integerIn = (min: number, max = MAX_INT) => params.integer().refine((value) => value >= min && value <= max, INVALID);

/** One of the listed integers. */
export const integerOf = (...allowed: number[]) => params.integer().refine((value) => allowed.includes(value), INVALID);

/** A decimal number from `min` to `max`, in steps of `step` when given. */
export const decimalIn = (options: { min: number; max?: number; step?: number }) =>
  z
    .preprocess(
      (value) => (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value),
      z.number(),
    )
    .refine((value) => {
      if (value < options.min || value > (options.max ?? Number.MAX_SAFE_INTEGER)) return false;
      if (!options.step) return true;
      const steps = value / options.step;
      return Math.abs(steps - Math.round(steps)) < 1e-9;
    }, INVALID);

export const text = (maximum = 255) => params.string(maximum);

/** A nullable text: JSON null clears it. */
export const optionalText = (maximum = 255) => params.string(maximum).nullable();

/** A URL or a path on this instance (`/help`), as GitLab's URL settings accept; empty clears it. */
export const urlText = () =>
  params
    .string(2048)
    .refine((value) => value === '' || value.startsWith('/') || URL.canParse(value), { message: 'is not a valid URL' })
    .nullable();

export const emailText = () =>
  params
    .string(255)
    .refine((value) => value === '' || z.email().safeParse(value).success, { message: 'is invalid' })
    .nullable();

export const flag = () => params.boolean();

export const oneOf = <const Values extends readonly [string, ...string[]]>(values: Values) => z.enum(values);

/**
 * A list of strings in GitLab's forms: a JSON array, `list[]=a&list[]=b`, or one string separated
 * by commas (and, where `separators` says, by whitespace and semicolons, as GitLab's `*_raw` lists).
 */
export const textList = (options: { maximum?: number; separators?: RegExp; values?: readonly string[] } = {}) => {
  const separators = options.separators ?? /,/;
  const item = options.values ? z.enum(options.values as [string, ...string[]]) : z.string().max(255);
  return z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(separators)
            .map((part) => part.trim())
            .filter(Boolean)
        : value,
    z.array(item).max(options.maximum ?? 1000),
  );
};

/** A list of integer ids: a JSON array, `ids[]=1&ids[]=2` or `ids=1,2`. */
export const integerList = () => params.integerList();

/** Weights from 0 to 100 by name: `{"default": 100}` or `weights[default]=100`. */
export const weights = () => z.record(z.string().min(1).max(255), integerIn(0, 100));

const DURATION_UNITS: Record<string, number> = {
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  mins: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hr: 3600,
  hrs: 3600,
  hour: 3600,
  hours: 3600,
  d: 86_400,
  day: 86_400,
  days: 86_400,
  w: 604_800,
  wk: 604_800,
  week: 604_800,
  weeks: 604_800,
  mo: 2_592_000,
  month: 2_592_000,
  months: 2_592_000,
  y: 31_536_000,
  yr: 31_536_000,
  year: 31_536_000,
  years: 31_536_000,
};

const DURATION = /^(?:\d+(?:\.\d+)?\s*[a-z]+[\s,]*(?:and\s+)?)+$/;

/** Seconds of a human-readable duration (`3 days`, `1 week 2d`, `90 min`), or undefined when unreadable. */
export function durationSeconds(value: string): number | undefined {
  const normalized = value.trim().toLowerCase();
  // A bare number counts seconds, as GitLab's ChronicDuration reads it.
  if (/^\d+$/.test(normalized)) return Number(normalized);
  if (!DURATION.test(normalized)) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of normalized.matchAll(/(\d+(?:\.\d+)?)\s*([a-z]+)/g)) {
    const factor = unit === undefined ? undefined : DURATION_UNITS[unit];
    if (factor === undefined) return undefined;
    seconds += Number(amount) * factor;
  }
  return seconds;
}

/** A human-readable duration of at least `minimumSeconds`; empty means none (never). */
export const durationText = (minimumSeconds: number) =>
  params
    .string(255)
    .refine(
      (value) => {
        if (value.trim() === '') return true;
        const seconds = durationSeconds(value);
        return seconds !== undefined && seconds >= minimumSeconds;
      },
      { message: 'is not a correct duration' },
    )
    .nullable();

/** `10.0.0.1` or `10.0.0.0/8` (IPv4 or IPv6). */
function isAddressOrRange(value: string): boolean {
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** Comma-separated IP addresses and CIDR ranges, at least one. */
export const addressList = () =>
  params.string(10_000).refine(
    (value) => {
      const parts = value.split(/[\s,]+/).filter(Boolean);
      return parts.length > 0 && parts.every(isAddressOrRange);
    },
    { message: 'is invalid' },
  );
