/**
 * GitLab's bulk tag deletion rules, as arithmetic over a repository's tags: the delete regex
 * selects, the keep regex spares, `latest` always stays, the `keep_n` newest of the selected stay,
 * and with `older_than` only older ones go. Regexes are RE2, matched against the whole name.
 *
 * RE2 comes from `re2js`, a pure-JavaScript port of RE2 with its syntax and guarantees (linear
 * time, no backreferences or lookarounds), rather than the native `re2` binding: that one cannot
 * be built for Node 24 where installs have no access to GitHub or nodejs.org (its install script
 * downloads a prebuilt binary or node-gyp headers from there).
 */
import { RE2JS } from 're2js';

export interface CleanupRules {
  nameRegexDelete: string;
  nameRegexKeep?: string | undefined;
  keepN?: number | undefined;
  /** Milliseconds: only tags created longer ago than this go. */
  olderThanMs?: number | undefined;
}

export interface CleanupCandidate {
  name: string;
  /** The image config's `created`; a tag without one is never taken for older. */
  createdAt: Date | null;
}

/** Compiles a regex as RE2 does, anchored at both ends; throws with RE2's reason when it is no RE2 regex. */
export function compileAnchored(pattern: string): RE2JS {
  return RE2JS.compile(`^(?:${pattern})$`);
}

/** The names of the tags to delete. */
export function tagsToDelete(tags: CleanupCandidate[], rules: CleanupRules, now: Date): string[] {
  const remove = compileAnchored(rules.nameRegexDelete);
  const keep = rules.nameRegexKeep ? compileAnchored(rules.nameRegexKeep) : undefined;
  let selected = tags.filter((tag) => tag.name !== 'latest' && remove.matches(tag.name) && !keep?.matches(tag.name));
  if (rules.keepN !== undefined) {
    // Newest first by the image's creation; tags without a date count as oldest.
    const newestFirst = [...selected].sort((a, b) => (b.createdAt?.getTime() ?? -Infinity) - (a.createdAt?.getTime() ?? -Infinity));
    selected = newestFirst.slice(rules.keepN);
  }
  if (rules.olderThanMs !== undefined) {
    const before = now.getTime() - rules.olderThanMs;
    selected = selected.filter((tag) => tag.createdAt !== null && tag.createdAt.getTime() < before);
  }
  return selected.map((tag) => tag.name).sort();
}

const SECOND = 1000;
const UNITS: Array<[RegExp, number]> = [
  [/^(s|secs?|seconds?)$/, SECOND],
  [/^(m|mins?|minutes?)$/, 60 * SECOND],
  [/^(h|hrs?|hours?)$/, 3600 * SECOND],
  [/^(d|days?)$/, 86_400 * SECOND],
  [/^(w|wks?|weeks?)$/, 7 * 86_400 * SECOND],
  // As ChronicDuration, which GitLab uses: a month is 30 days, a year 365.
  [/^(mo|mos|mon|mons|months?)$/, 30 * 86_400 * SECOND],
  [/^(y|yrs?|years?)$/, 365 * 86_400 * SECOND],
];

/**
 * A human duration as GitLab reads `older_than` (`1h`, `2 days`, `1month`, `1 week 2 days`), in
 * milliseconds; undefined when it is not one.
 */
export function parseHumanDuration(text: string): number | undefined {
  const terms = [
    ...text
      .trim()
      .toLowerCase()
      .matchAll(/(\d+(?:\.\d+)?)\s*([a-z]*)\s*(?:,|and)?\s*/g),
  ];
  const consumed = terms.map((term) => term[0]).join('');
  if (terms.length === 0 || consumed.length !== text.trim().length) return undefined;
  let total = 0;
  for (const [, amount, unit] of terms) {
    const factor = unit === '' ? SECOND : UNITS.find(([pattern]) => pattern.test(unit ?? ''))?.[1];
    if (factor === undefined) return undefined;
    total += Number(amount) * factor;
  }
  return total > 0 ? total : undefined;
}
