import { actorOf, type AuthenticatedCaller } from '@platform/auth';
import type { EventActor } from '@platform/events';
import type { Group } from '../access/namespace.entity.ts';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { Viewer } from '../access/access-sql.ts';
import { isAdmin, type AccessPolicy } from '../access/access-policy.ts';
import type { GroupsService } from './groups-service.ts';
import { groupDetailsView } from './group-views.ts';

/** Reads a group's details (and its projects, with `withProjects`) as the viewer sees them, and shows them. */
export async function readGroupDetails(options: {
  groups: GroupsService;
  viewer: Viewer;
  idOrPath: number | string;
  withProjects: boolean;
  withCustomAttributes: boolean;
  views: NamespaceViewContext;
}) {
  const { viewer } = options;
  const group = await options.groups.details(viewer, options.idOrPath, {
    customAttributes: isAdmin(viewer) && options.withCustomAttributes,
    withProjects: options.withProjects,
  });
  return groupDetailsView(group, { viewer, views: options.views });
}

/** A change the caller makes to a group, answered with the group's details: with its projects, except where `withProjects` is false (a new group has none). */
export async function readChangedGroupDetails(
  deps: { groups: GroupsService; access: AccessPolicy; views: NamespaceViewContext },
  caller: AuthenticatedCaller,
  change: (viewer: Viewer, actor: EventActor) => Promise<Group>,
  options: { withProjects: boolean } = { withProjects: true },
) {
  const viewer = await deps.access.viewerOf(caller);
  const group = await change(viewer, actorOf(caller));
  return readGroupDetails({ ...deps, viewer, idOrPath: group.id, withProjects: options.withProjects, withCustomAttributes: false });
}
