/** GitLab's namespace path rules for suggesting a free path in place of a taken one (`Namespace.clean_path`). */

const TRAILING_VIOLATIONS = ['.git', '.atom', '.'];
/** Numbered suggestions tried before a time-based suffix. */
const MAX_NUMBERED_TRIES = 4;

/** A path made of what `input` allows: the local part of an email, only letters, digits, `_`, `-` and `.`, no leading dashes nor trailing `.git`, `.atom`, `.`. */
export function pathSlug(input: string): string {
  let slug = input.replace(/@.*$/s, '').replace(/[^a-zA-Z0-9_\-.]/g, '');
  for (let previous = ''; previous !== slug; ) {
    previous = slug;
    for (const violation of TRAILING_VIOLATIONS) if (slug.endsWith(violation)) slug = slug.slice(0, -violation.length);
  }
  slug = slug.replace(/^-+/, '');
  return slug.trim() ? slug : 'blank';
}

/**
 * The candidates in the order GitLab tries them: the slug, then the slug with 1 to 4, then with
 * a number made of the current millisecond, minute and ISO week (plus the try's offset).
 */
export function suggestionCandidates(slug: string, now: Date, tries: number): string[] {
  const candidates: string[] = [];
  for (let count = 0; count < tries; count += 1) {
    if (count === 0) candidates.push(slug);
    else if (count <= MAX_NUMBERED_TRIES) candidates.push(`${slug}${count}`);
    else candidates.push(`${slug}${timeSuffix(now) + count - MAX_NUMBERED_TRIES - 1}`);
  }
  return candidates;
}

function timeSuffix(now: Date): number {
  const millis = String(now.getUTCMilliseconds()).padStart(3, '0');
  const minutes = String(now.getUTCMinutes()).padStart(2, '0');
  return Number(`${millis}${minutes}${String(isoWeek(now)).padStart(2, '0')}`.replace(/^0+/, '') || '0');
}

function isoWeek(date: Date): number {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  return Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
}
