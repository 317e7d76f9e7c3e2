import { authenticationChanged } from '@platform/auth';
import { reply, routesOf } from '@platform/http';
import type { ResourceAccessTokensService } from './resource-access-tokens-service.ts';
import {
  createResourceAccessTokenParams,
  resourceAccessTokenListParams,
  resourceAccessTokenParams,
  rotateResourceAccessTokenParams,
} from './resource-access-tokens.schemas.ts';
import { resourceAccessTokenView } from './resource-access-tokens-views.ts';

const route = routesOf<{ accessTokens: ResourceAccessTokensService }>('identity');

/** `/projects/:id/access_tokens` and `/groups/:id/access_tokens`, the same for both, as GitLab's. */
export const resourceAccessTokensRoutes = (['project', 'group'] as const).flatMap((type) => {
  const tokens = `/api/v4/${type}s/:id/access_tokens`;
  return [
    route.list({
      path: tokens,
      access: 'user',
      scope: 'read_api',
      input: resourceAccessTokenListParams,
      handle: async ({ caller, input, window, deps: { accessTokens } }) => {
        const page = await accessTokens.list({ caller, type, idOrPath: input.id, state: input.state, window });
        return { ...page, items: page.items.map(resourceAccessTokenView) };
      },
    }),
    route({
      method: 'GET',
      path: `${tokens}/:token_id`,
      access: 'user',
      scope: 'read_api',
      input: resourceAccessTokenParams,
      handle: async ({ caller, input, deps: { accessTokens } }) =>
        resourceAccessTokenView(await accessTokens.get({ caller, type, idOrPath: input.id, tokenId: input.token_id })),
    }),
    route({
      method: 'POST',
      path: tokens,
      access: 'user',
      scope: 'api',
      input: createResourceAccessTokenParams,
      status: 201,
      handle: async ({ caller, input, deps: { accessTokens } }) => {
        const created = await accessTokens.create({
          caller,
          type,
          idOrPath: input.id,
          input: {
            name: input.name,
            description: input.description,
            scopes: input.scopes,
            expiresAt: input.expires_at,
            accessLevel: input.access_level,
          },
        });
        return { ...resourceAccessTokenView(created), token: created.plain };
      },
    }),
    route({
      method: 'DELETE',
      path: `${tokens}/:token_id`,
      access: 'user',
      scope: 'api',
      input: resourceAccessTokenParams,
      status: 204,
      handle: async ({ caller, input, deps: { accessTokens } }) => {
        const botId = await accessTokens.revoke({ caller, type, idOrPath: input.id, tokenId: input.token_id });
        return reply({ headers: authenticationChanged([botId]) });
      },
    }),
    route({
      method: 'POST',
      path: `${tokens}/:token_id/rotate`,
      access: 'user',
      scope: 'api',
      input: rotateResourceAccessTokenParams,
      handle: async ({ caller, input, deps: { accessTokens } }) => {
        const rotated = await accessTokens.rotate({
          caller,
          type,
          idOrPath: input.id,
          tokenId: input.token_id,
          expiresAt: input.expires_at,
        });
        return reply({
          headers: authenticationChanged([rotated.token.userId]),
          body: { ...resourceAccessTokenView(rotated), token: rotated.plain },
        });
      },
    }),
  ];
});
