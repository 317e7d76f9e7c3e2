import { routesOf } from '@platform/http';
import type { UsersService } from '../users/users-service.ts';
import type { GpgKeysService } from './gpg-keys-service.ts';
import { gpgKeyView } from './gpg-keys-views.ts';
import {
  addGpgKeyParams,
  addUserGpgKeyParams,
  ownGpgKeyParams,
  ownGpgKeysParams,
  userGpgKeyParams,
  userGpgKeysParams,
} from './gpg-keys.schemas.ts';

interface GpgKeysRouteDeps {
  gpgKeys: GpgKeysService;
  users: UsersService;
}

const route = routesOf<GpgKeysRouteDeps>('identity');

/** GitLab's GPG key endpoints, for the current user (`/user/gpg_keys`) and any user (`/users/:user_id/gpg_keys`). */
export const gpgKeysRoutes = [
  route.list({
    path: '/api/v4/user/gpg_keys',
    access: 'user',
    scope: 'read_user',
    input: ownGpgKeysParams,
    handle: async ({ caller, window, deps: { gpgKeys, users } }) => {
      const page = await gpgKeys.list(await users.find(caller.userId), window);
      return { ...page, items: page.items.map(gpgKeyView) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/user/gpg_keys/:key_id',
    access: 'user',
    scope: 'read_user',
    input: ownGpgKeyParams,
    handle: async ({ caller, input, deps: { gpgKeys, users } }) =>
      gpgKeyView(await gpgKeys.get(await users.find(caller.userId), input.key_id)),
  }),

  route({
    method: 'POST',
    path: '/api/v4/user/gpg_keys',
    access: 'user',
    scope: 'api',
    input: addGpgKeyParams,
    status: 201,
    handle: async ({ caller, input, deps: { gpgKeys, users } }) =>
      gpgKeyView(await gpgKeys.add(caller, await users.find(caller.userId), input.key)),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/user/gpg_keys/:key_id',
    access: 'user',
    scope: 'api',
    input: ownGpgKeyParams,
    status: 204,
    handle: async ({ caller, input, deps: { gpgKeys, users } }) => {
      await gpgKeys.remove(caller, await users.find(caller.userId), input.key_id);
    },
  }),

  route.list({
    path: '/api/v4/users/:user_id/gpg_keys',
    access: 'anonymous',
    scope: 'read_user',
    input: userGpgKeysParams,
    handle: async ({ input, window, deps: { gpgKeys, users } }) => {
      const page = await gpgKeys.list(await users.find(input.user_id), window);
      return { ...page, items: page.items.map(gpgKeyView) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/users/:user_id/gpg_keys/:key_id',
    access: 'anonymous',
    scope: 'read_user',
    input: userGpgKeyParams,
    handle: async ({ input, deps: { gpgKeys, users } }) => gpgKeyView(await gpgKeys.get(await users.find(input.user_id), input.key_id)),
  }),

  route({
    method: 'POST',
    path: '/api/v4/users/:user_id/gpg_keys',
    access: 'administrator',
    scope: 'api',
    input: addUserGpgKeyParams,
    status: 201,
    handle: async ({ caller, input, deps: { gpgKeys, users } }) =>
      gpgKeyView(await gpgKeys.add(caller, await users.find(input.user_id), input.key)),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/users/:user_id/gpg_keys/:key_id',
    access: 'administrator',
    scope: 'api',
    input: userGpgKeyParams,
    status: 204,
    handle: async ({ caller, input, deps: { gpgKeys, users } }) => {
      await gpgKeys.remove(caller, await users.find(input.user_id), input.key_id);
    },
  }),
];
