import { z } from 'zod';
import { actorOf } from '@platform/auth';
import { idOrPathParams, params, routesOf } from '@platform/http';
import { ACCESS_LEVEL } from '@platform/identity-client';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import { memberAccessLevelParam } from '../members/members.schemas.ts';
import type { AccessRequestsService } from './access-requests-service.ts';
import { accessRequestView, approvedRequestView } from './access-requests-views.ts';

const requesterParams = z.object({ id: params.idOrPath(), user_id: params.integer() });

const route = routesOf<{ accessRequests: AccessRequestsService; access: AccessPolicy; views: NamespaceViewContext }>('identity');

/** GitLab's access requests, the same for groups and projects. */
export const accessRequestsRoutes = (
  [
    {
      type: 'Group',
      requests: '/api/v4/groups/:id/access_requests',
      request: '/api/v4/groups/:id/access_requests/:user_id',
      approve: '/api/v4/groups/:id/access_requests/:user_id/approve',
    },
    {
      type: 'Project',
      requests: '/api/v4/projects/:id/access_requests',
      request: '/api/v4/projects/:id/access_requests/:user_id',
      approve: '/api/v4/projects/:id/access_requests/:user_id/approve',
    },
  ] as const
).flatMap(({ type, requests, request, approve }) => [
  route.list({
    path: requests,
    access: 'user',
    scope: 'read_api',
    input: idOrPathParams,
    handle: async ({ caller, input, deps: { accessRequests, access, views }, window }) => {
      const result = await accessRequests.list(await access.viewerOf(caller), type, input.id, window);
      return { ...result, items: result.items.map((entry) => accessRequestView(entry, views)) };
    },
  }),

  route({
    method: 'POST',
    path: requests,
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 201,
    handle: async ({ caller, input, deps: { accessRequests, access, views } }) =>
      accessRequestView(await accessRequests.request(await access.viewerOf(caller), actorOf(caller), type, input.id), views),
  }),

  route({
    method: 'PUT',
    path: approve,
    access: 'user',
    scope: 'api',
    input: requesterParams.extend({ access_level: memberAccessLevelParam(type).optional() }),
    handle: async ({ caller, input, deps: { accessRequests, access, views } }) => {
      const approved = await accessRequests.approve({
        viewer: await access.viewerOf(caller),
        actor: actorOf(caller),
        type,
        idOrPath: input.id,
        userId: input.user_id,
        accessLevel: input.access_level ?? ACCESS_LEVEL.DEVELOPER,
      });
      return approvedRequestView(approved, views);
    },
  }),

  route({
    method: 'DELETE',
    path: request,
    access: 'user',
    scope: 'api',
    input: requesterParams,
    status: 204,
    handle: async ({ caller, input, deps: { accessRequests, access } }) => {
      await accessRequests.deny({
        viewer: await access.viewerOf(caller),
        actor: actorOf(caller),
        type,
        idOrPath: input.id,
        userId: input.user_id,
      });
    },
  }),
]);
