import type { GitBranch } from '../repositories/git-repository.ts';
import { commitView } from '../commits/commit-views.ts';

/** How branch protection applies to a branch, for the caller. */
export interface BranchProtectionStatus {
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
  canPush: boolean;
}

/** GitLab's branch (`branch.json`). */
export function branchView(
  branch: GitBranch,
  context: { project: { webUrl: string }; isDefault: boolean; merged: boolean; protection: BranchProtectionStatus },
) {
  return {
    name: branch.name,
    commit: commitView(branch.commit, context.project),
    merged: context.merged,
    protected: context.protection.protected,
    default: context.isDefault,
    developers_can_push: context.protection.developersCanPush,
    developers_can_merge: context.protection.developersCanMerge,
    can_push: context.protection.canPush,
    web_url: `${context.project.webUrl}/-/tree/${branch.name.split('/').map(encodeURIComponent).join('/')}`,
  };
}
