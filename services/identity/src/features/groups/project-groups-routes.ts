import { mapPage } from '@platform/db';
import { routesOf } from '@platform/http';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { ProjectGroupsService } from './project-groups-service.ts';
import { projectGroupsQuery } from './project-groups.schemas.ts';
import { publicGroupView } from './public-group-views.ts';

const route = routesOf<{ projectGroups: ProjectGroupsService; access: AccessPolicy; views: NamespaceViewContext }>('identity');

/** A project's groups are a list of groups: the groups feature's, as the transfer locations are. */
export const projectGroupsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/groups',
    access: 'anonymous',
    scope: 'read_api',
    input: projectGroupsQuery,
    handle: async ({ caller, input, deps: { projectGroups, access, views }, window }) => {
      const viewer = await access.viewerOf(caller);
      return mapPage(await projectGroups.list(viewer, input, window), (groups) => groups.map((group) => publicGroupView(group, views)));
    },
  }),
];
