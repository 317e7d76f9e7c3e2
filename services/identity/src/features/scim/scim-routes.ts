import { Router, type Request, type Response } from 'express';
import { asyncHandler, baseUrlOf, parseParams } from '@platform/http';
import { SCIM_CONTENT_TYPE, ScimNotFoundError } from './scim-errors.ts';
import type { ScimService } from './scim-service.ts';
import { scimListView, scimUserView } from './scim-views.ts';
import { createScimUserBody, listScimUsersQuery, patchScimUserBody, scimGroupPathParams, scimUserPathParams } from './scim.schemas.ts';

const USERS_PATH = '/api/scim/v2/groups/:group_path/Users';

/** The group's SCIM token, as identity providers send it. The gateway passes it on untouched. */
function bearerTokenOf(req: Request): string | undefined {
  return req.get('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

function sendScim(res: Response, status: number, body: unknown): void {
  res.status(status).set('Content-Type', SCIM_CONTENT_TYPE).json(body);
}

/**
 * The SCIM 2.0 Users API of a group (RFC 7644), for its identity provider. The caller is
 * anonymous as far as the gateway is concerned: each request authenticates with the group's
 * SCIM token, and every answer, errors included, is `application/scim+json`.
 */
export function scimRoutes(options: { scim: ScimService }): Router {
  const { scim } = options;
  const router = Router();

  router.get(
    USERS_PATH,
    asyncHandler(async (req, res) => {
      const { group_path } = parseParams(scimGroupPathParams, req.params);
      const context = await scim.authenticate(group_path, bearerTokenOf(req));
      const query = parseParams(listScimUsersQuery, req.query);
      sendScim(res, 200, scimListView(await scim.list(context, query)));
    }),
  );

  router.get(
    `${USERS_PATH}/:id`,
    asyncHandler(async (req, res) => {
      const { group_path, id } = parseParams(scimUserPathParams, req.params);
      const context = await scim.authenticate(group_path, bearerTokenOf(req));
      sendScim(res, 200, scimUserView(await scim.get(context, id)));
    }),
  );

  router.post(
    USERS_PATH,
    asyncHandler(async (req, res) => {
      const { group_path } = parseParams(scimGroupPathParams, req.params);
      const context = await scim.authenticate(group_path, bearerTokenOf(req));
      const body = parseParams(createScimUserBody, req.body ?? {});
      const provisioned = await scim.create(context, body);
      const location = `${baseUrlOf(req)}/api/scim/v2/groups/${encodeURIComponent(group_path)}/Users/${encodeURIComponent(provisioned.identity.externUid)}`;
      res.set('Location', location);
      sendScim(res, 201, scimUserView(provisioned));
    }),
  );

  router.patch(
    `${USERS_PATH}/:id`,
    asyncHandler(async (req, res) => {
      const { group_path, id } = parseParams(scimUserPathParams, req.params);
      const context = await scim.authenticate(group_path, bearerTokenOf(req));
      const { Operations } = parseParams(patchScimUserBody, req.body ?? {});
      await scim.update(context, id, Operations);
      res.status(204).end();
    }),
  );

  router.delete(
    `${USERS_PATH}/:id`,
    asyncHandler(async (req, res) => {
      const { group_path, id } = parseParams(scimUserPathParams, req.params);
      const context = await scim.authenticate(group_path, bearerTokenOf(req));
      await scim.delete(context, id);
      res.status(204).end();
    }),
  );

  // Other SCIM endpoints (Groups, Schemas, ServiceProviderConfig...) are not offered.
  router.all('/api/scim/{*rest}', (req, _res, next) => {
    next(new ScimNotFoundError(`${req.method} ${req.path} is not a SCIM endpoint of this service`));
  });
  return router;
}
