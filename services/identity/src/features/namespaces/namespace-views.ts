import type { Namespace } from './namespace.entity.ts';

export interface NamespaceViewContext {
  /** The platform's public base URL, without a trailing slash. */
  externalUrl: string;
}

/** Groups live under `/groups/<full path>`; a personal namespace is its user's page. */
export function namespaceWebUrl(namespace: Namespace, context: NamespaceViewContext): string {
  return namespace.kind === 'group'
    ? `${context.externalUrl}/groups/${namespace.fullPath}`
    : `${context.externalUrl}/${namespace.fullPath}`;
}

/** GitLab's namespace summary, as a project embeds it and `GET /namespaces` lists it. */
export function namespaceView(namespace: Namespace, context: NamespaceViewContext) {
  return {
    id: namespace.id,
    name: namespace.name,
    path: namespace.path,
    kind: namespace.kind,
    full_path: namespace.fullPath,
    parent_id: namespace.parentId ?? null,
    avatar_url: namespace.avatarUrl ?? null,
    web_url: namespaceWebUrl(namespace, context),
  };
}
