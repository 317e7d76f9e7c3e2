/**
 * `push_events_branch_filter` with its `branch_filter_strategy`: a wildcard (`*` matches any
 * characters, slashes included), a regular expression, or every branch. An empty filter lets
 * every branch through. Tag pushes are never filtered.
 */
import type { BranchFilterStrategy } from './web-hook.entity.ts';

export function branchMatches(options: { strategy: BranchFilterStrategy; filter: string; branch: string }): boolean {
  const { strategy, filter, branch } = options;
  if (strategy === 'all_branches' || filter === '') return true;
  if (strategy === 'regex') return compileRegexFilter(filter)?.test(branch) ?? false;
  if (!filter.includes('*')) return filter === branch;
  const pattern = filter
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${pattern}$`).test(branch);
}

/** The filter as a regular expression, or undefined when it is none (GitLab then refuses the hook). */
export function compileRegexFilter(filter: string): RegExp | undefined {
  try {
    return new RegExp(filter);
  } catch {
    return undefined;
  }
}
