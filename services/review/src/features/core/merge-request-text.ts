/** What GitLab reads out of a merge request's title and description, and its human durations. */

const DRAFT_PREFIX = /^\s*(\[draft\]|\(draft\)|draft:|draft\s+-\s|\[wip\]|wip:)/i;

/** Titles starting with `Draft:`, `[Draft]`, `(Draft)`, `WIP:` or `[WIP]` mark drafts. */
export function isDraftTitle(title: string): boolean {
  return DRAFT_PREFIX.test(title);
}

const TASK_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([ xX~])\][ \t]/gm;

/** The description's task list: how many items, how many checked. */
export function taskCompletionStatus(description: string): { count: number; completed_count: number } {
  let count = 0;
  let completed = 0;
  for (const match of `${description}\n`.matchAll(TASK_ITEM)) {
    count += 1;
    if (match[1] !== ' ') completed += 1;
  }
  return { count, completed_count: completed };
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
/** GitLab's time tracking: a day is 8 hours, a week 5 days, a month 4 weeks. */
const DAY = 8 * HOUR;
const WEEK = 5 * DAY;
const MONTH = 4 * WEEK;
const UNITS: Array<[string, number]> = [
  ['mo', MONTH],
  ['w', WEEK],
  ['d', DAY],
  ['h', HOUR],
  ['m', MINUTE],
  ['s', 1],
];

/** `1mo 2w 3d 4h 30m`, as GitLab shows durations; null for none. */
export function humanDuration(seconds: number): string | null {
  if (seconds === 0) return null;
  let rest = Math.abs(seconds);
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const amount = Math.floor(rest / size);
    if (amount > 0) parts.push(`${amount}${unit}`);
    rest -= amount * size;
  }
  return `${seconds < 0 ? '-' : ''}${parts.join(' ')}`;
}

const UNIT_SECONDS: Record<string, number> = {
  mo: MONTH,
  month: MONTH,
  months: MONTH,
  w: WEEK,
  week: WEEK,
  weeks: WEEK,
  d: DAY,
  day: DAY,
  days: DAY,
  h: HOUR,
  hr: HOUR,
  hrs: HOUR,
  hour: HOUR,
  hours: HOUR,
  m: MINUTE,
  min: MINUTE,
  mins: MINUTE,
  minute: MINUTE,
  minutes: MINUTE,
  s: 1,
  sec: 1,
  secs: 1,
  second: 1,
  seconds: 1,
};

/**
 * Seconds in a human duration (`1mo 2w 3d 4h 30m`, `-1h`, `90m`); a bare number counts hours, as
 * GitLab's time tracking does. Undefined when the text is no duration.
 */
export function parseHumanDuration(text: string): number | undefined {
  const trimmed = text.trim();
  const negative = trimmed.startsWith('-');
  const body = negative ? trimmed.slice(1).trim() : trimmed;
  if (body === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(body)) return Math.round(Number(body) * HOUR) * (negative ? -1 : 1);
  let total = 0;
  let rest = body;
  const part = /^(\d+(?:\.\d+)?)\s*([a-z]+)\s*/i;
  while (rest.length > 0) {
    const match = part.exec(rest);
    const size = match ? UNIT_SECONDS[(match[2] ?? '').toLowerCase()] : undefined;
    if (!match || size === undefined) return undefined;
    total += Number(match[1]) * size;
    rest = rest.slice(match[0].length);
  }
  return Math.round(total) * (negative ? -1 : 1);
}
