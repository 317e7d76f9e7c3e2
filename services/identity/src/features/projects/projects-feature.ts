import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { ContainerRegistryTags } from '@platform/packages-client';
import { readModelDatabase, type EntityManager, type Orm } from '@platform/db';
import { onEvent } from '@platform/events';
import { createRouter } from '@platform/http';
import { reviewEvents, type RepositoryCreation } from '@platform/review-client';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import type { AccessCore } from '../access/access-core.ts';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { MembersService } from '../members/members-service.ts';
import type { UserStore } from '../users/users-store.ts';
import type { ResourceBots } from '../resource-access-tokens/resource-bots.ts';
import { ProjectStar } from './project-star.entity.ts';
import { projectsGrpc } from './projects-grpc.ts';
import { projectsRoutes } from './projects-routes.ts';
import { ProjectsService } from './projects-service.ts';
import { PgProjectStore, type ProjectStore } from './projects-store.ts';
import { ProjectsReadModel } from './projects-read-model.ts';
import { PgProjectTransferStore } from './project-transfer-store.ts';
import { ProjectTransferService } from './project-transfer-service.ts';
import { projectTransferRoutes } from './project-transfer-routes.ts';
import type { AvatarStorage } from '../avatars/avatar-storage.ts';

/** The projects table itself is the access core's (`accessEntities`). */
export const projectsEntities = [ProjectStar];

export interface ProjectsFeature extends Feature {
  projects: ProjectsService;
  store: ProjectStore;
  transfers: ProjectTransferService;
}

/** Projects: creation, settings, sharing with groups, stars. */
export function createProjectsFeature(deps: {
  em: EntityManager;
  orm: Orm;
  logger: Logger;
  access: AccessCore;
  members: MembersService;
  users: UserStore;
  /** A deleted project's bots go with it. */
  bots: ResourceBots;
  avatars: AvatarStorage;
  views: NamespaceViewContext;
  settings: ApplicationSettingsSource;
  /** Which projects have container registry tags: their paths stay. */
  containerRegistry: ContainerRegistryTags;
  /** Review, which creates a new project's repository. */
  repositories: RepositoryCreation;
  /** How often projects whose deletion was adjourned are looked for. */
  deletionIntervalMs: number;
}): ProjectsFeature {
  const { em, access } = deps;
  const store = new PgProjectStore({ em, namespaces: access.namespaces });
  const projects = new ProjectsService({
    em,
    projects: store,
    readModel: new ProjectsReadModel(readModelDatabase(em)),
    namespaces: access.namespaces,
    groups: access.groups,
    members: deps.members,
    access: access.policy,
    users: deps.users,
    bots: deps.bots,
    settings: deps.settings,
    containerRegistry: deps.containerRegistry,
    repositories: deps.repositories,
    logger: deps.logger,
  });
  const transfers = new ProjectTransferService({
    em,
    transfers: new PgProjectTransferStore(em),
    projects: store,
    namespaces: access.namespaces,
    members: deps.members,
    access: access.policy,
    users: deps.users,
    containerRegistry: deps.containerRegistry,
  });
  return {
    projects,
    store,
    transfers,
    schedules: [
      {
        name: 'identity.adjourned_project_deletions',
        intervalMs: deps.deletionIntervalMs,
        run: async () => {
          await projects.deleteDue();
        },
      },
    ],
    routes: [
      createRouter(projectsRoutes, { projects, avatars: deps.avatars, access: access.policy, views: deps.views }),
      createRouter(projectTransferRoutes, { transfers, projects, access: access.policy, views: deps.views }),
    ],
    rpcs: [projectsGrpc({ orm: deps.orm, access: access.policy, projects, logger: deps.logger })],
    consumes: [onEvent(reviewEvents.repositoryStorageChanged, ({ projectId, storage }) => store.setRepositoryStorage(projectId, storage))],
  };
}
