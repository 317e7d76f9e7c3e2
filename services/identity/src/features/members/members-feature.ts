import type { EntityManager, Orm } from '@platform/db';
import type { Logger } from '@platform/logger';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { AccessCore } from '../access/access-core.ts';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { UserStore } from '../users/users-store.ts';
import { Member } from './member.entity.ts';
import { PgMemberStore, type MemberStore } from './members-store.ts';
import { MembersService } from './members-service.ts';
import { membersRoutes } from './members-routes.ts';
import { membersGrpc } from './members-grpc.ts';

export const membersEntities = [Member];

export interface MembersFeature extends Feature {
  members: MembersService;
  store: MemberStore;
}

/** Members of groups and projects, and the RPCs through which review asks about group members and users' access. */
export function createMembersFeature(deps: {
  em: EntityManager;
  orm: Orm;
  logger: Logger;
  access: AccessCore;
  users: UserStore;
  views: NamespaceViewContext;
}): MembersFeature {
  const { em, access } = deps;
  const store = new PgMemberStore(em);
  const members = new MembersService({ em, members: store, users: deps.users, groups: access.groups, access: access.policy });
  return {
    members,
    store,
    routes: [createRouter(membersRoutes, { members, access: access.policy, views: deps.views })],
    rpcs: [membersGrpc({ orm: deps.orm, em, access: access.policy, logger: deps.logger })],
  };
}
