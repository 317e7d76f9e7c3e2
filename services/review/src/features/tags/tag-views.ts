import { commitView } from '../commits/commit-views.ts';
import type { TagDetails } from './tags-service.ts';

/** GitLab's tag (`Entities::Tag`). Releases live elsewhere: `release` is null. */
export function tagView({ tag, commit, isProtected }: TagDetails, project: { webUrl: string }) {
  return {
    name: tag.name,
    message: tag.message ?? '',
    target: tag.target,
    commit: commitView(commit, project),
    release: null,
    protected: isProtected,
    created_at: tag.createdAt,
  };
}
