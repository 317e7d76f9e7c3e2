import { readModelDatabase, type EntityManager, type Orm } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import type { AccessCore } from '../access/access-core.ts';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { GroupStore } from '../groups/groups-store.ts';
import type { ProjectStore } from '../projects/projects-store.ts';
import { ProjectsReadModel } from '../projects/projects-read-model.ts';
import { namespacesGrpc } from './namespaces-grpc.ts';
import { namespacesRoutes } from './namespaces-routes.ts';
import { NamespacePathsReadModel } from './namespace-paths-read-model.ts';
import { NamespacesService } from './namespaces-service.ts';

/** `GET /namespaces`, whether a path is taken, and the RPCs through which other services resolve projects and groups and check access. */
export function createNamespacesFeature(deps: {
  em: EntityManager;
  orm: Orm;
  logger: Logger;
  access: AccessCore;
  groups: GroupStore;
  projects: ProjectStore;
  views: NamespaceViewContext;
}): Feature {
  const { access, views } = deps;
  const existence = new NamespacesService({ paths: new NamespacePathsReadModel(readModelDatabase(deps.em)) });
  return {
    routes: [createRouter(namespacesRoutes, { namespaces: access.namespaces, access: access.policy, views, existence })],
    rpcs: [
      namespacesGrpc({
        orm: deps.orm,
        access: access.policy,
        groups: deps.groups,
        projects: deps.projects,
        namespaces: access.namespaces,
        projectReads: new ProjectsReadModel(readModelDatabase(deps.em)),
        views,
        logger: deps.logger,
      }),
    ],
  };
}
