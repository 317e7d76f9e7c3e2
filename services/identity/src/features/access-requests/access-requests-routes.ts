import { Router } from 'express';
import { z } from 'zod';
import { actorOf, requireUser } from '@platform/auth';
import { asyncHandler, callerOf, pageParams, pageShape, params, parseParams, requestParams, sendPage } from '@platform/http';
import type { NamespaceViewContext } from '../namespaces/namespace-views.ts';
import { basicUserView } from '../users/user-views.ts';
import type { AccessPolicy } from '../members/access-policy.ts';
import { ACCESS_LEVELS } from '../members/access-levels.ts';
import type { SourceType } from '../members/member.entity.ts';
import { memberAccessLevelParam } from '../members/members.schemas.ts';
import type { AccessRequestsService, AccessRequestWithUser } from './access-requests-service.ts';

const SOURCES = [
  ['groups', 'Group'],
  ['projects', 'Project'],
] as const satisfies ReadonlyArray<readonly [string, SourceType]>;

const listQuery = z.object({ ...pageShape, id: params.idOrPath() });
const requesterParams = z.object({ id: params.idOrPath(), user_id: params.integer() });

/** A pending request: the requester's summary with when they asked. */
function accessRequestView({ request, user }: AccessRequestWithUser, context: NamespaceViewContext) {
  return { ...basicUserView(user, context), created_at: request.createdAt, requested_at: request.requestedAt ?? null };
}

/** An approved request: `access_level` replaces `requested_at`. */
function approvedRequestView({ request, user }: AccessRequestWithUser, context: NamespaceViewContext) {
  return {
    ...basicUserView(user, context),
    created_at: request.createdAt,
    access_level: request.accessLevel,
    expires_at: request.expiresAt ?? null,
  };
}

export function accessRequestsRoutes(options: {
  accessRequests: AccessRequestsService;
  access: AccessPolicy;
  views: NamespaceViewContext;
}): Router {
  const { accessRequests, access, views } = options;
  const router = Router();

  for (const [prefix, type] of SOURCES) {
    router.get(
      `/api/v4/${prefix}/:id/access_requests`,
      asyncHandler(async (req, res) => {
        const caller = requireUser(callerOf(req));
        const query = parseParams(listQuery, requestParams(req));
        const page = pageParams(query);
        const result = await accessRequests.list(await access.viewerOf(caller), type, query.id, {
          offset: page.offset,
          limit: page.perPage,
        });
        sendPage(req, res, { page, total: result.total, items: result.items.map((entry) => accessRequestView(entry, views)) });
      }),
    );

    router.post(
      `/api/v4/${prefix}/:id/access_requests`,
      asyncHandler(async (req, res) => {
        const caller = requireUser(callerOf(req));
        const { id } = parseParams(listQuery, req.params);
        const created = await accessRequests.request(await access.viewerOf(caller), actorOf(caller), type, id);
        res.status(201).json(accessRequestView(created, views));
      }),
    );

    router.put(
      `/api/v4/${prefix}/:id/access_requests/:user_id/approve`,
      asyncHandler(async (req, res) => {
        const caller = requireUser(callerOf(req));
        const input = parseParams(requesterParams.extend({ access_level: memberAccessLevelParam(type).optional() }), requestParams(req));
        const approved = await accessRequests.approve({
          viewer: await access.viewerOf(caller),
          actor: actorOf(caller),
          type,
          idOrPath: input.id,
          userId: input.user_id,
          accessLevel: input.access_level ?? ACCESS_LEVELS.developer,
        });
        res.json(approvedRequestView(approved, views));
      }),
    );

    router.delete(
      `/api/v4/${prefix}/:id/access_requests/:user_id`,
      asyncHandler(async (req, res) => {
        const caller = requireUser(callerOf(req));
        const { id, user_id: userId } = parseParams(requesterParams, req.params);
        await accessRequests.deny({ viewer: await access.viewerOf(caller), actor: actorOf(caller), type, idOrPath: id, userId });
        res.status(204).end();
      }),
    );
  }

  return router;
}
