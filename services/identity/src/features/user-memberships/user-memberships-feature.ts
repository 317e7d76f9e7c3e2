import { readModelDatabase, type EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { UserStore } from '../users/users-store.ts';
import { UserMembershipsReadModel } from './user-memberships-read-model.ts';
import { UserMembershipsService } from './user-memberships-service.ts';
import { userMembershipsRoutes } from './user-memberships-routes.ts';

/** A user's memberships and users' last activity, for administrators. */
export function createUserMembershipsFeature(deps: { em: EntityManager; users: UserStore }): Feature {
  const memberships = new UserMembershipsService({
    users: deps.users,
    readModel: new UserMembershipsReadModel(readModelDatabase(deps.em)),
  });
  return { routes: [createRouter(userMembershipsRoutes, { memberships })] };
}
