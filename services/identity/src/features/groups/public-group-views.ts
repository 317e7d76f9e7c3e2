import type { Group, Namespace } from '../access/namespace.entity.ts';
import { fullNameOf } from '../access/namespaces-store.ts';
import { avatarUrlView, namespaceWebUrl, type NamespaceViewContext } from '../access/namespace-views.ts';

/** GitLab's `PublicGroupDetails`, as transfer locations list groups; `known` holds their ancestors. */
export function publicGroupView(group: Group, known: Map<number, Namespace>, context: NamespaceViewContext) {
  return {
    id: group.id,
    web_url: namespaceWebUrl(group, context),
    name: group.name,
    avatar_url: avatarUrlView(group.avatarUrl, context),
    full_name: fullNameOf(group, known),
    full_path: group.fullPath,
  };
}
