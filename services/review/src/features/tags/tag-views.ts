import type { GitCommit, GitTag } from '../repositories/git-repository.ts';
import { commitView } from '../commits/commit-views.ts';

/** GitLab's tag (`Entities::Tag`). Releases live elsewhere and protected tags are not kept: `release` is null, `protected` false. */
export function tagView(tag: GitTag, commit: GitCommit, project: { webUrl: string }) {
  return {
    name: tag.name,
    message: tag.message ?? '',
    target: tag.target,
    commit: commitView(commit, project),
    release: null,
    protected: false,
    created_at: tag.createdAt,
  };
}
