import { ZERO_SHA } from './git-repository.ts';

export interface RefChange {
  ref: string;
  before: string;
  after: string;
}

/** The refs a push created, moved or deleted, from snapshots taken before and after it, by ref name. */
export function refChanges(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): RefChange[] {
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names
    .map((ref) => ({ ref, before: before.get(ref) ?? ZERO_SHA, after: after.get(ref) ?? ZERO_SHA }))
    .filter((change) => change.before !== change.after);
}

const BRANCH_PREFIX = 'refs/heads/';

export function branchNames(refs: ReadonlyMap<string, string>): string[] {
  return [...refs.keys()].filter((ref) => ref.startsWith(BRANCH_PREFIX)).map((ref) => ref.slice(BRANCH_PREFIX.length));
}

/**
 * The default branch after the first push into a repository without branches: HEAD's branch if
 * the push created it, else the first branch created. Undefined when the repository had
 * branches already, or still has none.
 */
export function firstDefaultBranch(options: {
  before: ReadonlyMap<string, string>;
  after: ReadonlyMap<string, string>;
  headBranch: string;
}): string | undefined {
  if (branchNames(options.before).length > 0) return undefined;
  const created = branchNames(options.after);
  if (created.includes(options.headBranch)) return options.headBranch;
  return created[0];
}
