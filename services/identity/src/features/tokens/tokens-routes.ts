import { Router } from 'express';
import { requireAdmin } from '@platform/auth';
import { asyncHandler, callerOf, parseParams, requestParams } from '@platform/http';
import type { PersonalAccessToken } from './personal-access-token.entity.ts';
import type { TokensService } from './tokens-service.ts';
import { createTokenParams } from './tokens.schemas.ts';

export function personalAccessTokenView(token: PersonalAccessToken) {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.createdAt,
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: token.lastUsedAt,
    active: !token.revoked,
    expires_at: token.expiresAt,
  };
}

export function tokensRoutes(options: { tokens: TokensService }): Router {
  const router = Router();

  router.post(
    '/api/v4/users/:user_id/personal_access_tokens',
    asyncHandler(async (req, res) => {
      requireAdmin(callerOf(req));
      const input = parseParams(createTokenParams, requestParams(req));
      const { token, plain } = await options.tokens.create(input);
      res.status(201).json({ ...personalAccessTokenView(token), token: plain });
    }),
  );

  return router;
}
