import { z } from 'zod';
import { NotFoundError, UnauthorizedError } from '@platform/errors';
import { idOrPathParams, params, routesOf } from '@platform/http';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { NamespaceStore } from '../access/namespaces-store.ts';
import { namespaceView, type NamespaceViewContext } from '../access/namespace-views.ts';
import type { NamespacesService } from './namespaces-service.ts';

const namespaceListQuery = z.object({
  search: z.string().max(255).optional(),
  owned_only: params.boolean().optional(),
});

const namespaceExistsQuery = z.object({
  id: z.string().max(255),
  parent_id: params.integer().optional(),
});

const route = routesOf<{
  namespaces: NamespaceStore;
  access: AccessPolicy;
  views: NamespaceViewContext;
  existence: NamespacesService;
}>('identity');

/**
 * `GET /namespaces`: where the caller can put projects; `GET /namespaces/:id` by id or full path;
 * `GET /namespaces/:id/exists`: whether a path is taken, with a free one suggested.
 */
export const namespacesRoutes = [
  route.list({
    path: '/api/v4/namespaces',
    access: 'user',
    scope: 'read_api',
    input: namespaceListQuery,
    handle: async ({ caller, input, deps: { namespaces, access, views }, window }) => {
      const viewer = await access.viewerOf(caller);
      if (viewer.kind !== 'user') throw new UnauthorizedError();
      const result = await namespaces.listFor(
        viewer,
        { ...(input.search ? { search: input.search } : {}), ...(input.owned_only ? { ownedOnly: true } : {}) },
        window,
      );
      return { ...result, items: result.items.map((namespace) => namespaceView(namespace, views)) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/namespaces/:id',
    access: 'user',
    scope: 'read_api',
    input: idOrPathParams,
    handle: async ({ caller, input: { id }, deps: { namespaces, access, views } }) => {
      const viewer = await access.viewerOf(caller);
      const namespace = typeof id === 'number' ? await namespaces.findById(id) : await namespaces.findByFullPath(id);
      if (!namespace) throw new NotFoundError('Namespace');
      await access.requireVisibleNamespace(viewer, namespace);
      return namespaceView(namespace, views);
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/namespaces/:id/exists',
    access: 'user',
    scope: 'read_api',
    input: namespaceExistsQuery,
    handle: async ({ input, deps: { existence } }) => existence.existence(input.id, input.parent_id ?? null),
  }),
];
