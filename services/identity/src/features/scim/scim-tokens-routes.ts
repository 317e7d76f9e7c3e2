import { Router } from 'express';
import { requireUser } from '@platform/auth';
import { asyncHandler, callerOf, parseParams } from '@platform/http';
import { groupIdParams } from '../saml-providers/saml-providers.schemas.ts';
import type { ScimTokensService } from './scim-tokens-service.ts';

export function scimTokensRoutes(options: { scimTokens: ScimTokensService }): Router {
  const { scimTokens } = options;
  const router = Router();

  router.post(
    '/api/v4/groups/:id/scim/token',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { id } = parseParams(groupIdParams, req.params);
      res.status(201).json({ token: await scimTokens.issue(caller, id) });
    }),
  );

  router.delete(
    '/api/v4/groups/:id/scim/token',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { id } = parseParams(groupIdParams, req.params);
      await scimTokens.revoke(caller, id);
      res.status(204).end();
    }),
  );

  return router;
}
