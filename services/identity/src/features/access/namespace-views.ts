import type { Namespace } from './namespace.entity.ts';

/** What a view shows as `avatar_url`: the stored avatar path under the platform's public URL, null for none. */
export function avatarUrlView(avatarPath: string | null | undefined, context: { externalUrl: string }): string | null {
  return avatarPath ? `${context.externalUrl}${avatarPath}` : null;
}

export interface NamespaceViewContext {
  /** The platform's public base URL, without a trailing slash. */
  externalUrl: string;
  /** The container registry's host as users see it (`REGISTRY_PUBLIC_HOST`); the platform's own host when unset. */
  registryHost?: string;
}

/** Groups live under `/groups/<full path>`. */
export function groupWebUrl(group: Pick<Namespace, 'fullPath'>, context: NamespaceViewContext): string {
  return `${context.externalUrl}/groups/${group.fullPath}`;
}

/** A personal namespace is its user's page. */
export function namespaceWebUrl(namespace: Pick<Namespace, 'kind' | 'fullPath'>, context: NamespaceViewContext): string {
  return namespace.kind === 'group' ? groupWebUrl(namespace, context) : `${context.externalUrl}/${namespace.fullPath}`;
}

/** GitLab's namespace summary, as a project embeds it and `GET /namespaces` lists it. */
export function namespaceView(
  namespace: Pick<Namespace, 'id' | 'name' | 'path' | 'kind' | 'fullPath' | 'parentId' | 'avatarUrl'>,
  context: NamespaceViewContext,
) {
  return {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.fullPath,
    parent_id: namespace.parentId ?? null,
    avatar_url: avatarUrlView(namespace.avatarUrl, context),
    web_url: namespaceWebUrl(namespace, context),
  };
}

/** A share with a group, as `shared_with_groups` shows it: read as a plain row, not entities. */
export interface SharedGroup {
  groupId: number;
  groupName: string;
  groupFullPath: string;
  groupAccess: number;
  expiresAt: string | null;
}

/** One entry of `shared_with_groups`, of groups and of projects alike. */
export function sharedWithGroupView(share: SharedGroup) {
  return {
    group_id: share.groupId,
    group_name: share.groupName,
    group_full_path: share.groupFullPath,
    group_access_level: share.groupAccess,
    expires_at: share.expiresAt ?? null,
  };
}
