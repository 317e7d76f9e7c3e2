import type { Request } from 'express';
import { baseUrlOf, reply, routesOf } from '@platform/http';
import { SCIM_CONTENT_TYPE } from './scim-errors.ts';
import type { ScimService } from './scim-service.ts';
import { scimListView, scimUserView } from './scim-views.ts';
import { createScimUserBody, listScimUsersQuery, patchScimUserBody, scimGroupPathParams, scimUserPathParams } from './scim.schemas.ts';

/** The group's SCIM token, as identity providers send it. The gateway passes it on untouched. */
function bearerTokenOf(req: Request): string | undefined {
  return req.get('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

function scimReply(body: unknown, headers: Record<string, string> = {}) {
  return reply({ headers: { 'Content-Type': SCIM_CONTENT_TYPE, ...headers }, body });
}

const route = routesOf<{ scim: ScimService }>('identity');

/**
 * The SCIM 2.0 Users API of a group (RFC 7644), for its identity provider. The caller is
 * anonymous as far as the gateway is concerned: each request authenticates with the group's
 * SCIM token, and every answer, errors included, is `application/scim+json`.
 */
export const scimRoutes = [
  route({
    method: 'GET',
    path: '/api/scim/v2/groups/:group_path/Users',
    access: 'anonymous',
    scope: 'read_api',
    input: scimGroupPathParams.extend(listScimUsersQuery.shape),
    handle: async ({ input: { group_path, ...query }, request, deps: { scim } }) => {
      const context = await scim.authenticate(group_path, bearerTokenOf(request));
      return scimReply(scimListView(await scim.list(context, query)));
    },
  }),

  route({
    method: 'GET',
    path: '/api/scim/v2/groups/:group_path/Users/:id',
    access: 'anonymous',
    scope: 'read_api',
    input: scimUserPathParams,
    handle: async ({ input, request, deps: { scim } }) => {
      const context = await scim.authenticate(input.group_path, bearerTokenOf(request));
      return scimReply(scimUserView(await scim.get(context, input.id)));
    },
  }),

  route({
    method: 'POST',
    path: '/api/scim/v2/groups/:group_path/Users',
    access: 'anonymous',
    scope: 'api',
    input: scimGroupPathParams.extend(createScimUserBody.shape),
    status: 201,
    handle: async ({ input: { group_path, ...body }, request, deps: { scim } }) => {
      const context = await scim.authenticate(group_path, bearerTokenOf(request));
      const provisioned = await scim.create(context, body);
      const location = `${baseUrlOf(request)}/api/scim/v2/groups/${encodeURIComponent(group_path)}/Users/${encodeURIComponent(provisioned.identity.externUid)}`;
      return scimReply(scimUserView(provisioned), { Location: location });
    },
  }),

  route({
    method: 'PATCH',
    path: '/api/scim/v2/groups/:group_path/Users/:id',
    access: 'anonymous',
    scope: 'api',
    input: scimUserPathParams.extend(patchScimUserBody.shape),
    status: 204,
    handle: async ({ input, request, deps: { scim } }) => {
      const context = await scim.authenticate(input.group_path, bearerTokenOf(request));
      await scim.update(context, input.id, input.Operations);
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/scim/v2/groups/:group_path/Users/:id',
    access: 'anonymous',
    scope: 'api',
    input: scimUserPathParams,
    status: 204,
    handle: async ({ input, request, deps: { scim } }) => {
      const context = await scim.authenticate(input.group_path, bearerTokenOf(request));
      await scim.delete(context, input.id);
    },
  }),
];
