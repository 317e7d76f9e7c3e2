import type { ContainerRepository, ContainerTag } from './container-registry.entity.ts';

export interface RegistryViewContext {
  /** The registry's host as users see it. */
  publicHost: string;
}

/** GitLab's `ContainerRegistry::Tag`. */
export function tagView(repository: ContainerRepository, tag: ContainerTag, context: RegistryViewContext) {
  return { name: tag.name, path: `${repository.path}:${tag.name}`, location: `${context.publicHost}/${repository.path}:${tag.name}` };
}

/** GitLab's `ContainerRegistry::TagDetails`. */
export function tagDetailsView(repository: ContainerRepository, tag: ContainerTag, context: RegistryViewContext) {
  return {
    ...tagView(repository, tag, context),
    revision: tag.revision,
    short_revision: tag.revision?.slice(0, 9) ?? null,
    digest: tag.digest,
    created_at: tag.imageCreatedAt?.toISOString() ?? null,
    total_size: tag.totalSize,
  };
}

/** GitLab's `ContainerRegistry::Repository`, with `tags` and `tags_count` when asked for. */
export function repositoryView(
  item: { repository: ContainerRepository; tags: ContainerTag[] },
  options: RegistryViewContext & { tags: boolean; tagsCount: boolean; apiBaseUrl: string; canDelete: boolean },
) {
  const { repository } = item;
  return {
    id: repository.id,
    name: repository.name,
    path: repository.path,
    project_id: repository.projectId,
    location: `${options.publicHost}/${repository.path}`,
    created_at: repository.createdAt.toISOString(),
    cleanup_policy_started_at: null,
    status: repository.status,
    ...(options.tagsCount ? { tags_count: item.tags.length } : {}),
    ...(options.tags ? { tags: item.tags.map((tag) => tagView(repository, tag, options)) } : {}),
    ...(options.canDelete
      ? { delete_api_path: `${options.apiBaseUrl}/projects/${repository.projectId}/registry/repositories/${repository.id}` }
      : {}),
  };
}
