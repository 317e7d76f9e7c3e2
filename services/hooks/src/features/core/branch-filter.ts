/**
 * `push_events_branch_filter` with its `branch_filter_strategy`: a wildcard (`*` matches any
 * characters, slashes included), a regular expression, or every branch. An empty filter lets
 * every branch through. Tag pushes are never filtered.
 *
 * A regular expression is a hook owner's untrusted input: as GitLab's `Gitlab::UntrustedRegexp`,
 * it is RE2 syntax run by an RE2 engine, in time linear in the branch name's length (no
 * backtracking, so no pattern can stall the consumer), and without RE2's missing features
 * (backreferences, lookarounds).
 */
import { RE2JS } from 're2js';
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
  return RE2JS.compile(`^${pattern}$`).test(branch);
}

/** The filter as an RE2 regular expression, or undefined when it is none (GitLab then refuses the hook). */
export function compileRegexFilter(filter: string): RE2JS | undefined {
  try {
    return RE2JS.compile(filter);
  } catch {
    return undefined;
  }
}
