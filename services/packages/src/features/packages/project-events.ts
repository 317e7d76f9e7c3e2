/**
 * Identity's project and group events, as they concern packages: a deleted project's packages go
 * with it, and a renamed or moved one's keep its current path and ancestry (group lists select by
 * them, `project_path` and `web_path` show them).
 */
import { onEvent, type EventHandler } from '@platform/events';
import { identityEvents } from '@platform/identity-client';
import type { PackagesService } from './packages-service.ts';

export function projectEventHandlers(packages: PackagesService): EventHandler[] {
  const followGroup = async (groupId: number) => packages.followProjects(await packages.projectsUnderGroup(groupId));
  return [
    onEvent(identityEvents.projectDeleted, async ({ project }) => {
      if (project) await packages.removeProject(project.id);
    }),
    onEvent(identityEvents.projectTransferred, async ({ project }) => {
      if (project) await packages.followProjects([project.id]);
    }),
    onEvent(identityEvents.projectUpdated, async ({ project, changes }) => {
      if (project && changes.some((change) => change.attribute === 'path')) await packages.followProjects([project.id]);
    }),
    onEvent(identityEvents.groupTransferred, async ({ group }) => {
      if (group) await followGroup(group.id);
    }),
    onEvent(identityEvents.groupUpdated, async ({ group, changes }) => {
      if (group && changes.some((change) => change.attribute === 'path')) await followGroup(group.id);
    }),
  ];
}
