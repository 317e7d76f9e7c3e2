import type { GitBranch } from '../repositories/git-repository.ts';
import { commitView } from '../commits/commit-views.ts';

/**
 * GitLab's branch (`branch.json`). Branch protection is not modelled yet: every branch reports
 * `protected: false`, as GitLab does for an unprotected branch.
 */
export function branchView(
  branch: GitBranch,
  context: { project: { webUrl: string }; isDefault: boolean; merged: boolean; canPush: boolean },
) {
  return {
    name: branch.name,
    commit: commitView(branch.commit, context.project),
    merged: context.merged,
    protected: false,
    default: context.isDefault,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: context.canPush,
    web_url: `${context.project.webUrl}/-/tree/${branch.name.split('/').map(encodeURIComponent).join('/')}`,
  };
}
