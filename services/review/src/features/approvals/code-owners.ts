/**
 * GitLab's CODEOWNERS file: where it is looked for, how it is read (sections, default owners,
 * escaped spaces) and which entry owns a path (gitignore patterns, the last match in each
 * section wins).
 */
import ignore from 'ignore';

/** Where GitLab looks for the file, in this order; the first found is used. */
export const CODE_OWNERS_PATHS = ['CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'] as const;

/** The section of entries before any `[Section]` header. */
export const DEFAULT_SECTION = 'codeowners';

/** An owner as written: `@user`, `@group/subgroup` (which one is decided later), or an email. */
export type CodeOwner = { kind: 'name'; name: string } | { kind: 'email'; email: string };

export interface CodeOwnersEntry {
  pattern: string;
  owners: CodeOwner[];
  section: string;
  /** `^[Section]`: its approvals are optional. */
  optional: boolean;
  /** `[Section][2]`: approvals the section needs, 1 unless given. */
  approvalsRequired: number;
}

/** `\ ` and `\#` are a literal space and hash in a pattern. */
function splitEntry(line: string): { pattern: string; rest: string } {
  let pattern = '';
  let index = 0;
  for (; index < line.length; index += 1) {
    const char = line[index];
    if (char === '\\' && index + 1 < line.length) {
      pattern += line[index + 1];
      index += 1;
    } else if (char === ' ' || char === '\t') break;
    else pattern += char;
  }
  return { pattern, rest: line.slice(index) };
}

function ownersOf(text: string): CodeOwner[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((word): CodeOwner[] => {
      if (word.startsWith('@') && word.length > 1) return [{ kind: 'name', name: word.slice(1) }];
      if (/^[^@\s]+@[^@\s]+$/.test(word)) return [{ kind: 'email', email: word }];
      return [];
    });
}

const SECTION_HEADER = /^(\^)?\[([^\]]+)\](?:\[(\d+)\])?(.*)$/;

/** Every entry of a CODEOWNERS file, in file order; a section named twice is one section. */
export function parseCodeOwners(content: string): CodeOwnersEntry[] {
  const entries: CodeOwnersEntry[] = [];
  let section = { name: DEFAULT_SECTION, optional: false, approvalsRequired: 1, defaultOwners: [] as CodeOwner[] };
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const header = SECTION_HEADER.exec(line);
    if (header) {
      section = {
        name: header[2]?.trim() ?? DEFAULT_SECTION,
        optional: header[1] === '^',
        approvalsRequired: header[3] ? Number(header[3]) : 1,
        defaultOwners: ownersOf(header[4] ?? ''),
      };
      continue;
    }
    const { pattern, rest } = splitEntry(line);
    if (!pattern) continue;
    const written = ownersOf(rest.replace(/(^|\s)#.*$/, ''));
    entries.push({
      pattern,
      owners: written.length > 0 ? written : section.defaultOwners,
      section: section.name,
      optional: section.optional,
      approvalsRequired: section.approvalsRequired,
    });
  }
  return entries;
}

/** Whether a gitignore-style pattern matches a repository path (`/docs/` anchored, `*.md` anywhere, `dir/` its contents). */
export function matchesCodeOwnersPattern(pattern: string, path: string): boolean {
  return ignore().add(pattern).ignores(path.replace(/^\/+/, ''));
}

/**
 * The entries that own any of `paths`: per section, the last entry matching each path wins; each
 * winning entry is named once, with the paths it owns.
 */
export function entriesOwning(
  entries: readonly CodeOwnersEntry[],
  paths: readonly string[],
): Array<{ entry: CodeOwnersEntry; paths: string[] }> {
  const owned = new Map<CodeOwnersEntry, string[]>();
  const sections = [...new Set(entries.map((entry) => entry.section))];
  for (const path of paths) {
    for (const section of sections) {
      const winner = entries.filter((entry) => entry.section === section && matchesCodeOwnersPattern(entry.pattern, path)).at(-1);
      if (winner) owned.set(winner, [...(owned.get(winner) ?? []), path]);
    }
  }
  return entries.filter((entry) => owned.has(entry)).map((entry) => ({ entry, paths: owned.get(entry) ?? [] }));
}
