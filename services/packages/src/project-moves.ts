/**
 * Identity's events that move projects: a project transferred or given a new path, or a group above
 * it transferred or given a new path. Packages and container repositories keep a copy of their
 * project's path and ancestry (group lists select by them), which follows with these handlers.
 */
import { onEvent, type EventHandler } from '@platform/events';
import { identityEvents } from '@platform/identity-client';

export interface ProjectFollower {
  /** Refreshes the kept path and ancestry of these projects' records. */
  followProjects(projectIds: number[]): Promise<void>;
  /** The projects with records under a group, directly or in its subgroups. */
  projectsUnderGroup(groupId: number): Promise<number[]>;
}

export function projectMoveHandlers(follower: ProjectFollower): EventHandler[] {
  const followGroup = async (groupId: number) => follower.followProjects(await follower.projectsUnderGroup(groupId));
  return [
    onEvent(identityEvents.projectTransferred, async ({ project }) => {
      if (project) await follower.followProjects([project.id]);
    }),
    onEvent(identityEvents.projectUpdated, async ({ project, changes }) => {
      if (project && changes.some((change) => change.attribute === 'path')) await follower.followProjects([project.id]);
    }),
    onEvent(identityEvents.groupTransferred, async ({ group }) => {
      if (group) await followGroup(group.id);
    }),
    onEvent(identityEvents.groupUpdated, async ({ group, changes }) => {
      if (group && changes.some((change) => change.attribute === 'path')) await followGroup(group.id);
    }),
  ];
}
