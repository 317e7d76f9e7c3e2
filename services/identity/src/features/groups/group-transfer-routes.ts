import { actorOf } from '@platform/auth';
import { pageParams, routesOf } from '@platform/http';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { NamespaceStore } from '../access/namespaces-store.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { ProjectTransferService } from '../projects/project-transfer-service.ts';
import type { GroupsService } from './groups-service.ts';
import type { GroupTransferService } from './group-transfer-service.ts';
import { groupDetailsView } from './group-views.ts';
import { publicGroupView } from './public-group-views.ts';
import { transferGroupParams, transferLocationsQuery, transferProjectIntoGroupParams } from './group-transfer.schemas.ts';

interface GroupTransferRouteDeps {
  transfers: GroupTransferService;
  projectTransfers: ProjectTransferService;
  groups: GroupsService;
  projects: ProjectsService;
  namespaces: NamespaceStore;
  access: AccessPolicy;
  views: NamespaceViewContext;
}

const route = routesOf<GroupTransferRouteDeps>('identity');

export const groupTransferRoutes = [
  route({
    method: 'POST',
    path: '/api/v4/groups/:id/transfer',
    access: 'user',
    scope: 'api',
    input: transferGroupParams,
    status: 201,
    handle: async ({ caller, input, deps }) => {
      const viewer = await deps.access.viewerOf(caller);
      const group = await deps.transfers.transfer(viewer, actorOf(caller), input);
      return groupDetailsView({ ...deps, viewer, idOrPath: group.id, withProjects: false, withCustomAttributes: false });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/groups/:id/transfer_locations',
    access: 'user',
    scope: 'read_api',
    input: transferLocationsQuery,
    handle: async ({ caller, input, deps: { transfers, namespaces, access, views }, page }) => {
      const viewer = await access.viewerOf(caller);
      const window = pageParams(input);
      const result = await transfers.locations(viewer, input, { offset: window.offset, limit: window.perPage });
      const known = await namespaces.withAncestors(result.items);
      return page(window, { ...result, items: result.items.map((group) => publicGroupView(group, known, views)) });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/transfer_locations',
    access: 'user',
    scope: 'read_api',
    input: transferLocationsQuery,
    handle: async ({ caller, input, deps: { transfers, namespaces, access, views }, page }) => {
      const viewer = await access.viewerOf(caller);
      const window = pageParams(input);
      const result = await transfers.projectLocations(viewer, input, { offset: window.offset, limit: window.perPage });
      const known = await namespaces.withAncestors(result.items);
      return page(window, { ...result, items: result.items.map((group) => publicGroupView(group, known, views)) });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/groups/:id/projects/:project_id',
    access: 'administrator',
    scope: 'api',
    input: transferProjectIntoGroupParams,
    status: 201,
    handle: async ({ caller, input, deps }) => {
      const viewer = await deps.access.viewerOf(caller);
      const group = await deps.projectTransfers.transferIntoGroup(viewer, actorOf(caller), input);
      return groupDetailsView({ ...deps, viewer, idOrPath: group.id, withProjects: true, withCustomAttributes: false });
    },
  }),
];
