import { Router } from 'express';
import { z } from 'zod';
import { requireUser } from '@platform/auth';
import { NotFoundError, UnauthorizedError } from '@platform/errors';
import {
  asyncHandler,
  callerOf,
  pageParams,
  pageShape,
  params,
  parseParams,
  requestParams,
  sendPage,
  idOrPathParams,
} from '@platform/http';
import type { AccessPolicy } from '../members/access-policy.ts';
import type { NamespaceStore } from './namespaces-store.ts';
import { namespaceView, type NamespaceViewContext } from './namespace-views.ts';

const namespaceListQuery = z.object({
  ...pageShape,
  search: z.string().max(255).optional(),
  owned_only: params.boolean().optional(),
});

/** `GET /namespaces`: where the caller can put projects; `GET /namespaces/:id` by id or full path. */
export function namespacesRoutes(options: { namespaces: NamespaceStore; access: AccessPolicy; views: NamespaceViewContext }): Router {
  const { namespaces, access, views } = options;
  const router = Router();

  router.get(
    '/api/v4/namespaces',
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(requireUser(callerOf(req)));
      if (viewer.kind !== 'user') throw new UnauthorizedError();
      const query = parseParams(namespaceListQuery, requestParams(req));
      const page = pageParams(query);
      const result = await namespaces.listFor(
        viewer,
        { ...(query.search ? { search: query.search } : {}), ...(query.owned_only ? { ownedOnly: true } : {}) },
        { offset: page.offset, limit: page.perPage },
      );
      sendPage(req, res, { page, total: result.total, items: result.items.map((namespace) => namespaceView(namespace, views)) });
    }),
  );

  router.get(
    '/api/v4/namespaces/:id',
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(requireUser(callerOf(req)));
      const { id } = parseParams(idOrPathParams, req.params);
      const namespace = typeof id === 'number' ? await namespaces.findById(id) : await namespaces.findByFullPath(id);
      if (!namespace) throw new NotFoundError('Namespace');
      await access.requireVisibleNamespace(viewer, namespace);
      res.json(namespaceView(namespace, views));
    }),
  );

  return router;
}
