import { routesOf } from '@platform/http';
import type { CustomAttributesService } from './custom-attributes-service.ts';
import { customAttributeView } from './custom-attributes-views.ts';
import { customAttributeKeyParams, customAttributesOwnerParams, setCustomAttributeParams } from './custom-attributes.schemas.ts';

const route = routesOf<{ customAttributes: CustomAttributesService }>('identity');

/** GitLab's custom attributes of users: administrators only, `:id` an id or a username. */
export const customAttributesRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/users/:id/custom_attributes',
    access: 'administrator',
    scope: 'read_user',
    input: customAttributesOwnerParams,
    handle: async ({ input, deps: { customAttributes } }) => (await customAttributes.list(input.id)).map(customAttributeView),
  }),

  route({
    method: 'GET',
    path: '/api/v4/users/:id/custom_attributes/:key',
    access: 'administrator',
    scope: 'read_user',
    input: customAttributeKeyParams,
    handle: async ({ input, deps: { customAttributes } }) => customAttributeView(await customAttributes.get(input.id, input.key)),
  }),

  route({
    method: 'PUT',
    path: '/api/v4/users/:id/custom_attributes/:key',
    access: 'administrator',
    scope: 'api',
    input: setCustomAttributeParams,
    handle: async ({ input: { id, key, value }, deps: { customAttributes } }) =>
      customAttributeView(await customAttributes.set(id, { key, value })),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/users/:id/custom_attributes/:key',
    access: 'administrator',
    scope: 'api',
    input: customAttributeKeyParams,
    status: 204,
    handle: async ({ input, deps: { customAttributes } }) => {
      await customAttributes.remove(input.id, input.key);
    },
  }),
];
