import { routesOf } from '@platform/http';
import type { TokensService } from './tokens-service.ts';
import { createTokenParams } from './tokens.schemas.ts';
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
    handle: async ({ input, deps: { tokens } }) => {
      const { token, plain } = await tokens.create(input);
      return { ...personalAccessTokenView(token), token: plain };
    },
  }),
];
