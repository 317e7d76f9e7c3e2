import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { UsersService } from '../users/users-service.ts';
import { UserStatus } from './user-status.entity.ts';
import { PgUserStatusStore } from './user-status-store.ts';
import { UserStatusService } from './user-status-service.ts';
import { userStatusRoutes } from './user-status-routes.ts';

export const userStatusEntities = [UserStatus];

/** Users' status: emoji, message, availability. */
export function createUserStatusFeature(deps: { em: EntityManager; users: UsersService }): Feature {
  const statuses = new UserStatusService({ statuses: new PgUserStatusStore(deps.em) });
  return { routes: [createRouter(userStatusRoutes, { statuses, users: deps.users })] };
}
