import { actorOf } from '@platform/auth';
import { routesOf } from '@platform/http';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { ProjectsService } from './projects-service.ts';
import type { ProjectTransferService } from './project-transfer-service.ts';
import { projectView, projectViewOptions } from './project-views.ts';
import { transferProjectParams } from './project-transfer.schemas.ts';

interface ProjectTransferRouteDeps {
  transfers: ProjectTransferService;
  projects: ProjectsService;
  access: AccessPolicy;
  views: NamespaceViewContext;
}

const route = routesOf<ProjectTransferRouteDeps>('identity');

/** Where a project may go is a list of groups: `GET /projects/:id/transfer_locations` is the groups feature's. */
export const projectTransferRoutes = [
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/transfer',
    access: 'user',
    scope: 'api',
    input: transferProjectParams,
    handle: async ({ caller, input, deps: { transfers, projects, access, views } }) => {
      const viewer = await access.viewerOf(caller);
      const project = await transfers.transfer(viewer, actorOf(caller), input);
      return projectView(await projects.details(viewer, project.id), views, projectViewOptions(viewer));
    },
  }),
];
