import { avatarUrlView, groupWebUrl, type NamespaceViewContext } from '../access/namespace-views.ts';
import type { PublicGroup } from './group-rows.ts';

/** GitLab's `PublicGroupDetails`, as transfer locations list groups. */
export function publicGroupView(group: PublicGroup, context: NamespaceViewContext) {
  return {
    id: group.id,
    web_url: groupWebUrl(group, context),
    name: group.name,
    avatar_url: avatarUrlView(group.avatarUrl, context),
    full_name: group.fullName,
    full_path: group.fullPath,
  };
}
