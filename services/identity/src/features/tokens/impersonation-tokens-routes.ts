import { authenticationChanged } from '@platform/auth';
import { NotFoundError } from '@platform/errors';
import { reply, routesOf } from '@platform/http';
import type { TokensService } from './tokens-service.ts';
import { createImpersonationTokenParams, impersonationTokenListParams, impersonationTokenParams } from './tokens.schemas.ts';
import { impersonationTokenView } from './tokens-views.ts';

const route = routesOf<{ tokens: TokensService }>('identity');

/** An impersonation token of the user, or GitLab's 404 for it. */
async function impersonationToken(tokens: TokensService, userId: number, tokenId: number) {
  await tokens.requireUser(userId);
  const token = await tokens.findOf({ userId, impersonation: true }, tokenId);
  if (!token) throw new NotFoundError('Impersonation Token');
  return token;
}

/** `/users/:user_id/impersonation_tokens`: administrators' tokens that act as the user. */
export const impersonationTokensRoutes = [
  route.list({
    path: '/api/v4/users/:user_id/impersonation_tokens',
    access: 'administrator',
    scope: 'read_user',
    input: impersonationTokenListParams,
    handle: async ({ input, window, deps: { tokens } }) => {
      await tokens.requireUser(input.user_id);
      const state = input.state === 'all' ? undefined : input.state;
      const result = await tokens.listOf({ userId: input.user_id, impersonation: true }, state, window);
      return { ...result, items: result.items.map(impersonationTokenView) };
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/users/:user_id/impersonation_tokens',
    access: 'administrator',
    scope: 'api',
    input: createImpersonationTokenParams,
    status: 201,
    handle: async ({ caller, input, deps: { tokens } }) => {
      const { token, plain } = await tokens.createImpersonation(caller, input);
      return { ...impersonationTokenView(token), token: plain };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/users/:user_id/impersonation_tokens/:impersonation_token_id',
    access: 'administrator',
    scope: 'read_user',
    input: impersonationTokenParams,
    handle: async ({ input, deps: { tokens } }) =>
      impersonationTokenView(await impersonationToken(tokens, input.user_id, input.impersonation_token_id)),
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/users/:user_id/impersonation_tokens/:impersonation_token_id',
    access: 'administrator',
    scope: 'api',
    input: impersonationTokenParams,
    status: 204,
    handle: async ({ caller, input, deps: { tokens } }) => {
      const token = await impersonationToken(tokens, input.user_id, input.impersonation_token_id);
      // GitLab revokes a revoked one again without complaint.
      if (!token.revoked) await tokens.revokeToken(caller, token);
      return reply({ headers: authenticationChanged([token.userId]) });
    },
  }),
];
