import { z } from 'zod';
import { NotFoundError } from '@platform/errors';
import { params, routesOf } from '@platform/http';
import type { Viewer } from '../access/access-sql.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import { customAttributeView } from './custom-attributes-views.ts';

/** A group or project service, as far as its administrators' custom attributes go. */
export interface CustomAttributeOwner {
  customAttributes(viewer: Viewer, idOrPath: number | string): Promise<Array<{ key: string; value: string }>>;
  setCustomAttribute(viewer: Viewer, idOrPath: number | string, key: string, value: string): Promise<{ key: string; value: string }>;
  removeCustomAttribute(viewer: Viewer, idOrPath: number | string, key: string): Promise<void>;
}

const route = routesOf<{ groups: CustomAttributeOwner; projects: CustomAttributeOwner; access: AccessPolicy }>('identity');

const ownerParams = z.object({ id: params.idOrPath() });
const keyParams = ownerParams.extend({ key: z.string().min(1).max(255) });
const setParams = keyParams.extend({ value: z.string().max(255) });

/** GitLab's custom attributes of groups and projects: administrators only, the same for both. */
export const resourceCustomAttributesRoutes = (
  [
    { owner: 'groups', list: '/api/v4/groups/:id/custom_attributes', single: '/api/v4/groups/:id/custom_attributes/:key' },
    { owner: 'projects', list: '/api/v4/projects/:id/custom_attributes', single: '/api/v4/projects/:id/custom_attributes/:key' },
  ] as const
).flatMap(({ owner, list, single }) => [
  route({
    method: 'GET',
    path: list,
    access: 'administrator',
    scope: 'read_api',
    input: ownerParams,
    handle: async ({ caller, input, deps }) =>
      (await deps[owner].customAttributes(await deps.access.viewerOf(caller), input.id)).map(customAttributeView),
  }),

  route({
    method: 'GET',
    path: single,
    access: 'administrator',
    scope: 'read_api',
    input: keyParams,
    handle: async ({ caller, input, deps }) => {
      const attributes = await deps[owner].customAttributes(await deps.access.viewerOf(caller), input.id);
      const attribute = attributes.find((candidate) => candidate.key === input.key);
      if (!attribute) throw new NotFoundError('Custom Attribute');
      return customAttributeView(attribute);
    },
  }),

  route({
    method: 'PUT',
    path: single,
    access: 'administrator',
    scope: 'api',
    input: setParams,
    handle: async ({ caller, input, deps }) =>
      customAttributeView(await deps[owner].setCustomAttribute(await deps.access.viewerOf(caller), input.id, input.key, input.value)),
  }),

  route({
    method: 'DELETE',
    path: single,
    access: 'administrator',
    scope: 'api',
    input: keyParams,
    status: 204,
    handle: async ({ caller, input, deps }) => {
      await deps[owner].removeCustomAttribute(await deps.access.viewerOf(caller), input.id, input.key);
    },
  }),
]);
