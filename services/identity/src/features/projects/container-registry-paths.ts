/**
 * GitLab's rule that a project whose container registry holds tags keeps its full path: the
 * registry keeps images by path, and they cannot move with the project. Refused, as GitLab does: a
 * transfer of such a project, a change of its path, and a transfer or path change of a group
 * above it. The packages service, which keeps the registry's tags, is asked every time.
 */
import type { ContainerRegistryTags } from '@platform/packages-client';
import type { Group } from '../access/namespace.entity.ts';
import type { ProjectStore } from './projects-store.ts';

/** GitLab's sentences for these refusals. */
export const CONTAINER_REGISTRY_TAGS_ERRORS = {
  projectTransfer: 'Project cannot be transferred, because tags are present in its container registry',
  projectPathChange: 'Cannot rename project because it contains container registry tags!',
  groupPathChange:
    'Cannot update the path because there are projects under this group that contain Docker images in their Container Registry. Please remove the images from your projects first and try again.',
};

/**
 * Whether any of the projects has tags in its container registry. When the packages service
 * cannot answer, this rejects with `UnavailableError` and the move is refused with 503: moving
 * anyway could leave images under a path no project has any more, which nobody could then pull,
 * list or delete through the API.
 */
export async function anyHasContainerTags(registry: ContainerRegistryTags, projectIds: number[]): Promise<boolean> {
  return (await registry.projectsWithTags(projectIds)).length > 0;
}

/** Whether any project in the group or its subgroups has tags in its container registry. */
export async function groupHasContainerTags(options: {
  registry: ContainerRegistryTags;
  /** The group's store (groups import projects, not the other way round). */
  groups: { subtreeOf(group: Group): Promise<Array<{ id: number }>> };
  projects: ProjectStore;
  group: Group;
}): Promise<boolean> {
  const subtree = await options.groups.subtreeOf(options.group);
  const projects = await options.projects.inNamespaces(subtree.map((member) => member.id));
  return anyHasContainerTags(
    options.registry,
    projects.map((project) => project.id),
  );
}
