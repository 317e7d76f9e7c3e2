/**
 * GitLab's default `issue_closing_pattern`: a closing word (close, closes, closed, closing, fix,
 * fixes, fixed, fixing, resolve, resolves, resolved, resolving, implement, implements,
 * implemented, implementing), an optional colon, then one or more issue references separated by
 * commas, spaces or "and".
 */
const ISSUE_REFERENCE = String.raw`(?:(?:[\w.-]+\/)+[\w.-]+)?#\d+|https?:\/\/[^\s]+\/-\/issues\/\d+`;
const CLOSING_PATTERN = new RegExp(
  String.raw`\b(?:[Cc]los(?:e[sd]?|ing)|\b[Ff]ix(?:e[sd]|ing)?|\b[Rr]esolv(?:e[sd]?|ing)|\b[Ii]mplement(?:s|ed|ing)?):? +` +
    String.raw`(?:(?:issues? +)?(?:${ISSUE_REFERENCE})(?: *,? +and +| *,? *)?)+`,
  'g',
);
const REFERENCE = new RegExp(`(${ISSUE_REFERENCE})`, 'g');

/**
 * The iids of this project's issues that `text` says it closes ("Closes #12", "Fixes #3, #4 and
 * acme/app#5", "Resolves https://host/acme/app/-/issues/6"); references to other projects are left out.
 */
export function closedIssueIids(text: string, project: { pathWithNamespace: string; webUrl: string }): number[] {
  const iids = new Set<number>();
  const ownPath = project.pathWithNamespace.toLowerCase();
  const ownIssues = `${project.webUrl.toLowerCase()}/-/issues/`;
  for (const [phrase] of text.matchAll(CLOSING_PATTERN)) {
    for (const [reference] of phrase.matchAll(REFERENCE)) {
      const lower = reference.toLowerCase();
      if (lower.startsWith('http')) {
        if (lower.startsWith(ownIssues)) iids.add(Number(lower.slice(ownIssues.length)));
        continue;
      }
      const [path, iid] = lower.split('#');
      if (path === '' || path === ownPath) iids.add(Number(iid));
    }
  }
  return [...iids];
}
