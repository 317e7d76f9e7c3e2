import { Router } from 'express';
import { requireUser } from '@platform/auth';
import { asyncHandler, callerOf, parseParams } from '@platform/http';
import type { ScimService } from './scim-service.ts';
import { scimLinkParams } from './scim.schemas.ts';

/**
 * A user's answers to groups' identity providers that asked to link an existing account: nothing
 * links it until its owner confirms here (GitLab sends a link invitation instead).
 */
export function scimLinksRoutes(options: { scim: ScimService }): Router {
  const { scim } = options;
  const router = Router();

  router.get(
    '/api/v4/user/scim_links',
    asyncHandler(async (req, res) => {
      const links = await scim.pendingLinks(requireUser(callerOf(req)));
      res.json(
        links.map(({ identity, group }) => ({
          group_id: group.id,
          group_path: group.fullPath,
          extern_uid: identity.externUid,
          created_at: identity.createdAt.toISOString(),
        })),
      );
    }),
  );

  router.post(
    '/api/v4/user/scim_links/:group_id/confirm',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { group_id } = parseParams(scimLinkParams, req.params);
      await scim.confirmLink(caller, group_id);
      res.status(204).end();
    }),
  );

  router.delete(
    '/api/v4/user/scim_links/:group_id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { group_id } = parseParams(scimLinkParams, req.params);
      await scim.declineLink(caller, group_id);
      res.status(204).end();
    }),
  );

  return router;
}
