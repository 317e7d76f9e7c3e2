import { routesOf } from '@platform/http';
import type { DeployKeysService } from './deploy-keys-service.ts';
import {
  addDeployKeyParams,
  createInstanceDeployKeyParams,
  deployKeyListParams,
  projectDeployKeyListParams,
  projectDeployKeyParams,
  updateDeployKeyParams,
} from './deploy-keys.schemas.ts';
import { deployKeyView, enabledDeployKeyView } from './deploy-keys-views.ts';

const route = routesOf<{ deployKeys: DeployKeysService }>('identity');

/** `/deploy_keys` for administrators and `/projects/:id/deploy_keys` for maintainers, as GitLab's. */
export const deployKeysRoutes = [
  route.list({
    path: '/api/v4/deploy_keys',
    access: 'administrator',
    scope: 'read_api',
    input: deployKeyListParams,
    handle: async ({ input, window, deps: { deployKeys } }) => {
      const page = await deployKeys.listAll(input.public, window);
      return { ...page, items: page.items.map(deployKeyView) };
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/deploy_keys',
    access: 'administrator',
    scope: 'api',
    input: createInstanceDeployKeyParams,
    status: 201,
    handle: async ({ caller, input, deps: { deployKeys } }) =>
      deployKeyView(await deployKeys.createInstanceKey(caller, { key: input.key, title: input.title, expiresAt: input.expires_at })),
  }),
  route.list({
    path: '/api/v4/projects/:id/deploy_keys',
    access: 'user',
    scope: 'read_api',
    input: projectDeployKeyListParams,
    handle: async ({ caller, input, window, deps: { deployKeys } }) => {
      const page = await deployKeys.list(caller, input.id, window);
      return { ...page, items: page.items.map(enabledDeployKeyView) };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/deploy_keys/:key_id',
    access: 'user',
    scope: 'read_api',
    input: projectDeployKeyParams,
    handle: async ({ caller, input, deps: { deployKeys } }) => enabledDeployKeyView(await deployKeys.get(caller, input.id, input.key_id)),
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/deploy_keys',
    access: 'user',
    scope: 'api',
    input: addDeployKeyParams,
    status: 201,
    handle: async ({ caller, input, deps: { deployKeys } }) =>
      enabledDeployKeyView(
        await deployKeys.add(caller, input.id, {
          key: input.key,
          title: input.title,
          expiresAt: input.expires_at,
          canPush: input.can_push ?? false,
        }),
      ),
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/deploy_keys/:key_id',
    access: 'user',
    scope: 'api',
    input: updateDeployKeyParams,
    handle: async ({ caller, input, deps: { deployKeys } }) =>
      deployKeyView((await deployKeys.update(caller, input.id, input.key_id, { title: input.title, canPush: input.can_push })).key),
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/deploy_keys/:key_id/enable',
    access: 'user',
    scope: 'api',
    input: projectDeployKeyParams,
    status: 201,
    handle: async ({ caller, input, deps: { deployKeys } }) => deployKeyView(await deployKeys.enable(caller, input.id, input.key_id)),
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/deploy_keys/:key_id',
    access: 'user',
    scope: 'api',
    input: projectDeployKeyParams,
    status: 204,
    handle: async ({ caller, input, deps: { deployKeys } }) => {
      await deployKeys.remove(caller, input.id, input.key_id);
    },
  }),
];
