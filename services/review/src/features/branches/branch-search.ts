import type { GitBranch } from '../repositories/git-repository.ts';

export type BranchSort = 'name_asc' | 'updated_asc' | 'updated_desc';

/**
 * GitLab's branch filter: `search` matches anywhere in the name, case-insensitively; `^term`
 * anchors it at the start and `term$` at the end.
 */
export function matchesSearch(name: string, search: string | undefined): boolean {
  if (!search) return true;
  const anchoredStart = search.startsWith('^');
  const anchoredEnd = search.endsWith('$') && search.length > (anchoredStart ? 1 : 0);
  const term = search.slice(anchoredStart ? 1 : 0, anchoredEnd ? -1 : undefined).toLowerCase();
  const lower = name.toLowerCase();
  if (anchoredStart && anchoredEnd) return lower === term;
  if (anchoredStart) return lower.startsWith(term);
  if (anchoredEnd) return lower.endsWith(term);
  return lower.includes(term);
}

export function sortBranches(branches: GitBranch[], sort: BranchSort): GitBranch[] {
  const byName = (a: GitBranch, b: GitBranch) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const byUpdate = (a: GitBranch, b: GitBranch) => Date.parse(a.commit.committedDate) - Date.parse(b.commit.committedDate) || byName(a, b);
  if (sort === 'updated_asc') return [...branches].sort(byUpdate);
  if (sort === 'updated_desc') return [...branches].sort((a, b) => byUpdate(b, a));
  return [...branches].sort(byName);
}
