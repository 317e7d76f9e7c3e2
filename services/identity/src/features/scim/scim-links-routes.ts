import { z } from 'zod';
import { routesOf } from '@platform/http';
import type { ScimService } from './scim-service.ts';
import { scimLinkView } from './scim-views.ts';
import { scimLinkParams } from './scim.schemas.ts';

const route = routesOf<{ scim: ScimService }>('identity');

/**
 * A user's answers to groups' identity providers that asked to link an existing account: nothing
 * links it until its owner confirms here (GitLab sends a link invitation instead).
 */
export const scimLinksRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/user/scim_links',
    access: 'user',
    scope: 'read_user',
    input: z.object({}),
    handle: async ({ caller, deps: { scim } }) => (await scim.pendingLinks(caller)).map(scimLinkView),
  }),

  route({
    method: 'POST',
    path: '/api/v4/user/scim_links/:group_id/confirm',
    access: 'user',
    scope: 'api',
    input: scimLinkParams,
    status: 204,
    handle: async ({ caller, input, deps: { scim } }) => {
      await scim.confirmLink(caller, input.group_id);
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/user/scim_links/:group_id',
    access: 'user',
    scope: 'api',
    input: scimLinkParams,
    status: 204,
    handle: async ({ caller, input, deps: { scim } }) => {
      await scim.declineLink(caller, input.group_id);
    },
  }),
];
