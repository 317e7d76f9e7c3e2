import { z } from 'zod';
import { mapPage } from '@platform/db';
import { params, routesOf } from '@platform/http';
import type { UserMembershipsService } from './user-memberships-service.ts';

const route = routesOf<{ memberships: UserMembershipsService }>('identity');

/** Where a user is a member (`GET /users/:user_id/memberships`, administrators), and who was active when (`GET /user/activities`). */
export const userMembershipsRoutes = [
  route.list({
    path: '/api/v4/users/:user_id/memberships',
    access: 'administrator',
    scope: 'read_user',
    input: z.object({ user_id: params.integer(), type: z.enum(['Project', 'Namespace']).optional() }),
    handle: async ({ input, window, deps: { memberships } }) =>
      mapPage(await memberships.memberships(input.user_id, input.type, window), (rows) =>
        rows.map((membership) => ({
          source_id: membership.sourceId,
          source_name: membership.sourceName,
          source_type: membership.sourceType,
          access_level: membership.accessLevel,
        })),
      ),
  }),

  route.list({
    path: '/api/v4/user/activities',
    access: 'user',
    scope: 'read_user',
    input: z.object({ from: params.datetime().optional() }),
    handle: async ({ caller, input, window, deps: { memberships } }) =>
      mapPage(await memberships.activities(caller, input.from, window), (rows) =>
        rows.map((activity) => ({
          username: activity.username,
          last_activity_on: activity.lastActivityOn,
          last_activity_at: activity.lastActivityOn,
        })),
      ),
  }),
];
