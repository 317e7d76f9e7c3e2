import { z } from 'zod';
import { authenticationChanged } from '@platform/auth';
import { reply, routesOf } from '@platform/http';
import type { TokensService } from './tokens-service.ts';
import {
  createOwnTokenParams,
  createTokenParams,
  rotateTokenByIdParams,
  rotateTokenParams,
  tokenIdParams,
  tokenListParams,
} from './tokens.schemas.ts';
import { personalAccessTokenView } from './tokens-views.ts';

const route = routesOf<{ tokens: TokensService }>('identity');

export const tokensRoutes = [
  route({
    method: 'POST',
    path: '/api/v4/users/:user_id/personal_access_tokens',
    access: 'administrator',
    scope: 'api',
    input: createTokenParams,
    status: 201,
    handle: async ({ caller, input, deps: { tokens } }) => {
      const { token, plain } = await tokens.create(caller, input);
      return { ...personalAccessTokenView(token), token: plain };
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/user/personal_access_tokens',
    access: 'user',
    scope: 'api',
    input: createOwnTokenParams,
    status: 201,
    handle: async ({ caller, input, deps: { tokens } }) => {
      const { token, plain } = await tokens.createOwn(caller, input);
      return { ...personalAccessTokenView(token), token: plain };
    },
  }),

  route.list({
    path: '/api/v4/personal_access_tokens',
    access: 'user',
    scope: 'read_api',
    input: tokenListParams,
    handle: async ({ caller, input, deps: { tokens }, window }) => {
      const result = await tokens.list(caller, input, window);
      return { ...result, items: result.items.map((token) => personalAccessTokenView(token)) };
    },
  }),

  // `self` routes come before `:id` ones, which would otherwise take `self` for an id.
  route({
    method: 'GET',
    path: '/api/v4/personal_access_tokens/self',
    access: 'user',
    scope: 'read_api',
    input: z.object({}),
    handle: async ({ caller, deps: { tokens } }) => personalAccessTokenView(await tokens.show(caller, 'self')),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/personal_access_tokens/self',
    access: 'user',
    scope: 'api',
    input: z.object({}),
    status: 204,
    handle: async ({ caller, deps: { tokens } }) =>
      reply({ headers: authenticationChanged([(await tokens.revoke(caller, 'self')).userId]) }),
  }),

  route({
    method: 'POST',
    path: '/api/v4/personal_access_tokens/self/rotate',
    access: 'user',
    scope: 'self_rotate',
    input: rotateTokenParams,
    handle: async ({ caller, input, deps: { tokens } }) => {
      const { token, plain } = await tokens.rotate(caller, 'self', input.expires_at);
      return reply({ headers: authenticationChanged([token.userId]), body: { ...personalAccessTokenView(token), token: plain } });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/personal_access_tokens/:id',
    access: 'user',
    scope: 'read_api',
    input: tokenIdParams,
    handle: async ({ caller, input, deps: { tokens } }) => personalAccessTokenView(await tokens.show(caller, input.id)),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/personal_access_tokens/:id',
    access: 'user',
    scope: 'api',
    input: tokenIdParams,
    status: 204,
    handle: async ({ caller, input, deps: { tokens } }) =>
      reply({ headers: authenticationChanged([(await tokens.revoke(caller, input.id)).userId]) }),
  }),

  route({
    method: 'POST',
    path: '/api/v4/personal_access_tokens/:id/rotate',
    access: 'user',
    scope: 'api',
    input: rotateTokenByIdParams,
    handle: async ({ caller, input, deps: { tokens } }) => {
      const { token, plain } = await tokens.rotate(caller, input.id, input.expires_at);
      return reply({ headers: authenticationChanged([token.userId]), body: { ...personalAccessTokenView(token), token: plain } });
    },
  }),
];
