/**
 * Identity's project and group events, as they concern packages: a deleted project's packages go
 * with it, and a renamed or moved one's keep its current path and ancestry (group lists select by
 * them, `project_path` and `web_path` show them).
 */
import { onEvent, type EventHandler } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import { projectMoveHandlers } from '../../project-moves.ts';
import type { PackagesService } from './packages-service.ts';

export function projectEventHandlers(packages: PackagesService): EventHandler[] {
  return [
    onEvent(identityEvents.projectDeleted, async ({ project }) => {
      if (project) await packages.removeProject(project.id);
    }),
    ...projectMoveHandlers(packages),
  ];
}
