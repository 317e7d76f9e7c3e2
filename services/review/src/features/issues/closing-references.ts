/** A project a reference may name: by its full path, or by its web address. */
export interface ReferencedProject {
  pathWithNamespace: string;
  webUrl: string;
}

const PROJECT_PATH = String.raw`(?:[\w.-]+\/)+[\w.-]+`;
/** GitLab's reference forms: `#12`, `group/project#12`, or the issue's address. */
const ISSUE_REFERENCE = String.raw`(?:${PROJECT_PATH})?#\d+|https?:\/\/[^\s]+\/-\/issues\/\d+`;
/** The same of merge requests: `!12`, `group/project!12`, or the merge request's address. */
const MERGE_REQUEST_REFERENCE = String.raw`(?:${PROJECT_PATH})?!\d+|https?:\/\/[^\s]+\/-\/merge_requests\/\d+`;
/** A reference starts a word: `abc#12` names nothing. */
const referencesOf = (reference: string) => new RegExp(String.raw`(?<![\w.\/-])(?:${reference})`, 'g');

/**
 * GitLab's default `issue_closing_pattern`: a closing word (close, closes, closed, closing, fix,
 * fixes, fixed, fixing, resolve, resolves, resolved, resolving, implement, implements,
 * implemented, implementing), an optional colon, then one or more issue references separated by
 * commas, spaces or "and".
 */
const CLOSING_PATTERN = new RegExp(
  String.raw`\b(?:[Cc]los(?:e[sd]?|ing)|\b[Ff]ix(?:e[sd]|ing)?|\b[Rr]esolv(?:e[sd]?|ing)|\b[Ii]mplement(?:s|ed|ing)?):? +` +
    String.raw`(?:(?:issues? +)?(?:${ISSUE_REFERENCE})(?: *,? +and +| *,? *)?)+`,
  'g',
);

/** Iids are integers: a greater number names nothing. */
const MAX_IID = 2 ** 31 - 1;

/** The iids of the project's issues or merge requests that the references of `pattern` in `text` name; other projects' are left out. */
function ownIids(text: string, pattern: RegExp, options: { project: ReferencedProject; marker: '#' | '!'; pages: string }): number[] {
  const iids = new Set<number>();
  const ownPath = options.project.pathWithNamespace.toLowerCase();
  const ownPages = `${options.project.webUrl.toLowerCase()}/-/${options.pages}/`;
  for (const [reference] of text.matchAll(pattern)) {
    const lower = reference.toLowerCase();
    if (lower.startsWith('http')) {
      if (lower.startsWith(ownPages)) iids.add(Number(lower.slice(ownPages.length)));
      continue;
    }
    const at = lower.lastIndexOf(options.marker);
    const path = lower.slice(0, at);
    if (path === '' || path === ownPath) iids.add(Number(lower.slice(at + 1)));
  }
  return [...iids].filter((iid) => iid <= MAX_IID);
}

/** A reference in a text to an issue or a merge request, of the text's own project or another. */
export interface Mention {
  type: 'Issue' | 'MergeRequest';
  /** The full path of the project it names; null for the text's own (`#12`, `!3`). */
  projectPath: string | null;
  /** The project's address, when the reference is the issue's or merge request's address. */
  projectUrl: string | null;
  iid: number;
}

/** What tells mentions apart: paths are read whatever their case. */
export function mentionKey(mention: Mention): string {
  return `${mention.type} ${mention.projectPath?.toLowerCase() ?? ''} ${mention.iid}`;
}

/** Every issue and merge request `text` references, once each, in any project (`#12`, `!3`, `group/project#12`, their addresses). */
export function mentionsIn(text: string): Mention[] {
  const mentions = new Map<string, Mention>();
  const forms = [
    { type: 'Issue', pattern: ISSUE_REFERENCE, marker: '#', pages: '/-/issues/' },
    { type: 'MergeRequest', pattern: MERGE_REQUEST_REFERENCE, marker: '!', pages: '/-/merge_requests/' },
  ] as const;
  for (const form of forms) {
    for (const [reference] of text.matchAll(referencesOf(form.pattern))) {
      const lower = reference.toLowerCase();
      const url = lower.startsWith('http');
      const at = url ? lower.lastIndexOf(form.pages) : lower.lastIndexOf(form.marker);
      const iid = Number(lower.slice(at + (url ? form.pages.length : 1)));
      if (iid > MAX_IID) continue;
      const before = reference.slice(0, at);
      if (url && !URL.canParse(before)) continue;
      const projectUrl = url ? before.toLowerCase() : null;
      const projectPath = url ? new URL(before).pathname.replace(/^\/+/, '') : before || null;
      const mention = { type: form.type, projectPath, projectUrl, iid };
      if (!mentions.has(mentionKey(mention))) mentions.set(mentionKey(mention), mention);
    }
  }
  return [...mentions.values()];
}

/** The iids of this project's issues that `text` mentions (`#12`, `acme/app#12`, the issue's address). */
export function referencedIssueIids(text: string, project: ReferencedProject): number[] {
  return ownIids(text, referencesOf(ISSUE_REFERENCE), { project, marker: '#', pages: 'issues' });
}

/** The iids of this project's merge requests that `text` mentions (`!12`, `acme/app!12`, the merge request's address). */
export function referencedMergeRequestIids(text: string, project: ReferencedProject): number[] {
  return ownIids(text, referencesOf(MERGE_REQUEST_REFERENCE), { project, marker: '!', pages: 'merge_requests' });
}

/**
 * The issues, of its own project or another, that `text` says it closes ("Closes #12",
 * "Fixes other/project#3", an issue's address), once each: GitLab's ClosingIssueExtractor before
 * it checks who may read them.
 */
export function closingMentionsIn(text: string): Mention[] {
  const mentions = new Map<string, Mention>();
  for (const [phrase] of text.matchAll(CLOSING_PATTERN)) {
    for (const mention of mentionsIn(phrase)) {
      if (mention.type === 'Issue' && !mentions.has(mentionKey(mention))) mentions.set(mentionKey(mention), mention);
    }
  }
  return [...mentions.values()];
}
