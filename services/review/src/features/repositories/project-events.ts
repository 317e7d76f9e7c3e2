/** Identity's project events, as they concern repositories: one is created with its project and removed with it. */
import { onEvent, type EventHandler } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import type { RepositoriesService } from './repositories-service.ts';

export function projectEventHandlers(repositories: RepositoriesService): EventHandler[] {
  return [
    onEvent(identityEvents.projectCreated, async ({ project }) => {
      if (project) await repositories.ensure(project.id);
    }),
    onEvent(identityEvents.projectDeleted, async ({ project }) => {
      if (project) await repositories.remove(project.id);
    }),
  ];
}
