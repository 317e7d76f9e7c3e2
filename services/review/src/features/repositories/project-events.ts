/** Identity's project events, as they concern repositories: one is created with its project and removed with it. */
import { onEvent, type EventHandler } from '@platform/events';
import { identityEvents, type IdentityAccess } from '@platform/identity-client';
import type { RepositoriesService } from './repositories-service.ts';

export function projectEventHandlers(repositories: RepositoriesService, access: Pick<IdentityAccess, 'projectPlacement'>): EventHandler[] {
  return [
    onEvent(identityEvents.projectCreated, async ({ project }) => {
      if (!project) return;
      // A fork's repository is a copy of its upstream's: identity says which project that is.
      const placement = await access.projectPlacement(project.id);
      await repositories.ensure(project.id, { forkedFromProjectId: placement?.forkedFromProjectId ?? null });
    }),
    onEvent(identityEvents.projectDeleted, async ({ project }) => {
      if (project) await repositories.remove(project.id);
    }),
  ];
}
