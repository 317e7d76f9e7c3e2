import { routesOf } from '@platform/http';
import type { DeployTokensService } from './deploy-tokens-service.ts';
import { createDeployTokenParams, deployTokenListParams, deployTokenParams, ownedDeployTokenListParams } from './deploy-tokens.schemas.ts';
import { deployTokenView } from './deploy-tokens-views.ts';

const route = routesOf<{ deployTokens: DeployTokensService }>('identity');

/** `/deploy_tokens` (administrators), and the same four routes for projects and groups, as GitLab's. */
export const deployTokensRoutes = [
  route.list({
    path: '/api/v4/deploy_tokens',
    access: 'administrator',
    scope: 'read_api',
    input: deployTokenListParams,
    handle: async ({ input, window, deps: { deployTokens } }) => {
      const page = await deployTokens.listAll(input.active, window);
      return { ...page, items: page.items.map((token) => deployTokenView(token)) };
    },
  }),
  ...(['project', 'group'] as const).flatMap((resource) => {
    const tokens = `/api/v4/${resource}s/:id/deploy_tokens`;
    return [
      route.list({
        path: tokens,
        access: 'user',
        scope: 'read_api',
        input: ownedDeployTokenListParams,
        handle: async ({ caller, input, window, deps: { deployTokens } }) => {
          const page = await deployTokens.list({ caller, resource, idOrPath: input.id, active: input.active, window });
          return { ...page, items: page.items.map((token) => deployTokenView(token)) };
        },
      }),
      route({
        method: 'POST',
        path: tokens,
        access: 'user',
        scope: 'api',
        input: createDeployTokenParams,
        status: 201,
        handle: async ({ caller, input, deps: { deployTokens } }) => {
          const { token, plain } = await deployTokens.create({
            caller,
            resource,
            idOrPath: input.id,
            input: { name: input.name, scopes: input.scopes, expiresAt: input.expires_at, username: input.username },
          });
          return { ...deployTokenView(token), token: plain };
        },
      }),
      route({
        method: 'GET',
        path: `${tokens}/:token_id`,
        access: 'user',
        scope: 'read_api',
        input: deployTokenParams,
        handle: async ({ caller, input, deps: { deployTokens } }) =>
          deployTokenView(await deployTokens.get({ caller, resource, idOrPath: input.id, tokenId: input.token_id })),
      }),
      route({
        method: 'DELETE',
        path: `${tokens}/:token_id`,
        access: 'user',
        scope: 'api',
        input: deployTokenParams,
        status: 204,
        handle: async ({ caller, input, deps: { deployTokens } }) => {
          await deployTokens.remove({ caller, resource, idOrPath: input.id, tokenId: input.token_id });
        },
      }),
    ];
  }),
];
