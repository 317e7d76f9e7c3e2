import { z } from 'zod';
import { routesOf } from '@platform/http';
import type { UsersService } from '../users/users-service.ts';
import type { UserStatusService } from './user-status-service.ts';
import { userStatusView } from './user-status-views.ts';
import { setStatusParams, statusOwnerParams } from './user-status.schemas.ts';

const route = routesOf<{ statuses: UserStatusService; users: UsersService }>('identity');

export const userStatusRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/user/status',
    access: 'user',
    scope: 'read_user',
    input: z.object({}),
    handle: async ({ caller, deps: { statuses, users } }) => userStatusView(await statuses.get(await users.find(caller.userId))),
  }),

  route({
    method: 'PUT',
    path: '/api/v4/user/status',
    access: 'user',
    scope: 'api',
    input: setStatusParams,
    handle: async ({ caller, input, deps: { statuses, users } }) =>
      userStatusView(await statuses.set(await users.find(caller.userId), input)),
  }),

  // Anybody, signed in or not, may read a user's status.
  route({
    method: 'GET',
    path: '/api/v4/users/:user_id/status',
    access: 'anonymous',
    scope: 'read_user',
    input: statusOwnerParams,
    handle: async ({ input, deps: { statuses, users } }) => userStatusView(await statuses.get(await users.find(input.user_id))),
  }),
];
