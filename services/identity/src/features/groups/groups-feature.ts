import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { ContainerRegistryTags } from '@platform/packages-client';
import { readModelDatabase, type EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { AccessCore } from '../access/access-core.ts';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { MembersService } from '../members/members-service.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import type { ProjectStore } from '../projects/projects-store.ts';
import type { ProjectTransferService } from '../projects/project-transfer-service.ts';
import { PgGroupTransferStore } from './group-transfer-store.ts';
import { GroupTransferService } from './group-transfer-service.ts';
import { groupTransferRoutes } from './group-transfer-routes.ts';
import type { AvatarStorage } from '../avatars/avatar-storage.ts';
import type { UserStore } from '../users/users-store.ts';
import { GroupGroupLink } from './group.entity.ts';
import { groupsRoutes } from './groups-routes.ts';
import { GroupsService } from './groups-service.ts';
import { PgGroupStore, type GroupStore } from './groups-store.ts';
import { GroupsReadModel } from './groups-read-model.ts';
import { ProjectGroupsReadModel } from './project-groups-read-model.ts';
import { projectGroupsRoutes } from './project-groups-routes.ts';
import { ProjectGroupsService } from './project-groups-service.ts';
import type { ResourceBots } from '../resource-access-tokens/resource-bots.ts';

/** The namespaces table itself is the access core's (`accessEntities`). */
export const groupsEntities = [GroupGroupLink];

export interface GroupsFeature extends Feature {
  store: GroupStore;
}

/** Groups: the tree of groups, their settings, sharing, and the projects listed under them. */
export function createGroupsFeature(deps: {
  em: EntityManager;
  access: AccessCore;
  members: MembersService;
  /** A group lists its projects and deletes them with it. */
  projects: { projects: ProjectsService; store: ProjectStore; transfers: ProjectTransferService };
  users: UserStore;
  /** A deleted group's bots go with it. */
  bots: ResourceBots;
  avatars: AvatarStorage;
  views: NamespaceViewContext;
  settings: ApplicationSettingsSource;
  /** Which projects have container registry tags: the paths of groups above them stay. */
  containerRegistry: ContainerRegistryTags;
}): GroupsFeature {
  const { em, access } = deps;
  const store = new PgGroupStore(em);
  const readModel = new GroupsReadModel(readModelDatabase(em));
  const groups = new GroupsService({
    em,
    groups: store,
    readModel,
    projects: deps.projects.store,
    namespaces: access.namespaces,
    members: deps.members,
    access: access.policy,
    users: deps.users,
    bots: deps.bots,
    settings: deps.settings,
    containerRegistry: deps.containerRegistry,
  });
  const transfers = new GroupTransferService({
    em,
    transfers: new PgGroupTransferStore(em),
    groups: store,
    readModel,
    projects: deps.projects.store,
    namespaces: access.namespaces,
    members: deps.members,
    access: access.policy,
    users: deps.users,
    containerRegistry: deps.containerRegistry,
  });
  const projectGroups = new ProjectGroupsService({
    access: access.policy,
    readModel: new ProjectGroupsReadModel(readModelDatabase(em)),
  });
  const routeDeps = { groups, projects: deps.projects.projects, access: access.policy, avatars: deps.avatars, views: deps.views };
  return {
    store,
    routes: [
      createRouter(groupsRoutes, routeDeps),
      createRouter(groupTransferRoutes, {
        ...routeDeps,
        transfers,
        projectTransfers: deps.projects.transfers,
      }),
      createRouter(projectGroupsRoutes, { projectGroups, access: access.policy, views: deps.views }),
    ],
  };
}
