import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { MembersService } from '../members/members-service.ts';
import type { MemberStore } from '../members/members-store.ts';
import type { UserStore } from '../users/users-store.ts';
import { AccessRequestsService } from './access-requests-service.ts';
import { accessRequestsRoutes } from './access-requests-routes.ts';

/** Requests for access to groups and projects; approving one makes a member. */
export function createAccessRequestsFeature(deps: {
  em: EntityManager;
  access: AccessPolicy;
  members: { members: MembersService; store: MemberStore };
  users: UserStore;
  views: NamespaceViewContext;
}): Feature {
  const accessRequests = new AccessRequestsService({
    em: deps.em,
    members: deps.members.members,
    memberStore: deps.members.store,
    users: deps.users,
  });
  return { routes: [createRouter(accessRequestsRoutes, { accessRequests, access: deps.access, views: deps.views })] };
}
