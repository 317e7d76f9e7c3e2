import { idOrPathParams, routesOf } from '@platform/http';
import type { ScimTokensService } from './scim-tokens-service.ts';

const route = routesOf<{ scimTokens: ScimTokensService }>('identity');

export const scimTokensRoutes = [
  route({
    method: 'POST',
    path: '/api/v4/groups/:id/scim/token',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 201,
    handle: async ({ caller, input, deps: { scimTokens } }) => ({ token: await scimTokens.issue(caller, input.id) }),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/groups/:id/scim/token',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 204,
    handle: async ({ caller, input, deps: { scimTokens } }) => {
      await scimTokens.revoke(caller, input.id);
    },
  }),
];
