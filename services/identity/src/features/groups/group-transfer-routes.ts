import { mapPage, type Page, type PageWindow } from '@platform/db';
import { routesOf } from '@platform/http';
import type { Viewer } from '../access/access-sql.ts';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { ProjectTransferService } from '../projects/project-transfer-service.ts';
import type { GroupsService } from './groups-service.ts';
import type { GroupTransferService } from './group-transfer-service.ts';
import type { PublicGroup } from './group-rows.ts';
import { readChangedGroupDetails } from './group-details.ts';
import { publicGroupView } from './public-group-views.ts';
import {
  transferGroupParams,
  transferLocationsQuery,
  transferProjectIntoGroupParams,
  type TransferLocationsQuery,
} from './group-transfer.schemas.ts';

interface GroupTransferRouteDeps {
  transfers: GroupTransferService;
  projectTransfers: ProjectTransferService;
  groups: GroupsService;
  projects: ProjectsService;
  access: AccessPolicy;
  views: NamespaceViewContext;
}

const route = routesOf<GroupTransferRouteDeps>('identity');

/** Where a group or a project may move: groups, shown as the public group list shows them. */
function transferLocations(
  path: string,
  find: (transfers: GroupTransferService, viewer: Viewer, input: TransferLocationsQuery, window: PageWindow) => Promise<Page<PublicGroup>>,
) {
  return route.list({
    path,
    access: 'user',
    scope: 'read_api',
    input: transferLocationsQuery,
    handle: async ({ caller, input, deps: { transfers, access, views }, window }) => {
      const viewer = await access.viewerOf(caller);
      return mapPage(await find(transfers, viewer, input, window), (groups) => groups.map((group) => publicGroupView(group, views)));
    },
  });
}

export const groupTransferRoutes = [
  route({
    method: 'POST',
    path: '/api/v4/groups/:id/transfer',
    access: 'user',
    scope: 'api',
    input: transferGroupParams,
    status: 201,
    handle: async ({ caller, input, deps }) =>
      readChangedGroupDetails(deps, caller, (viewer, actor) => deps.transfers.transfer(viewer, actor, input), { withProjects: false }),
  }),

  transferLocations('/api/v4/groups/:id/transfer_locations', (transfers, viewer, input, window) =>
    transfers.locations(viewer, input, window),
  ),

  transferLocations('/api/v4/projects/:id/transfer_locations', (transfers, viewer, input, window) =>
    transfers.projectLocations(viewer, input, window),
  ),

  route({
    method: 'POST',
    path: '/api/v4/groups/:id/projects/:project_id',
    access: 'administrator',
    scope: 'api',
    input: transferProjectIntoGroupParams,
    status: 201,
    handle: async ({ caller, input, deps }) =>
      readChangedGroupDetails(deps, caller, (viewer, actor) => deps.projectTransfers.transferIntoGroup(viewer, actor, input)),
  }),
];
