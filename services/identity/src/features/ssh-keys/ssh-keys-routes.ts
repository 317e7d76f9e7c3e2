import { routesOf } from '@platform/http';
import type { UsersService } from '../users/users-service.ts';
import type { ViewContext } from '../users/user-views.ts';
import type { SshKeysService } from './ssh-keys-service.ts';
import { sshKeyView } from './ssh-keys-views.ts';
import { addSshKeyParams, addUserSshKeyParams, ownKeyParams, ownKeysParams, userKeyParams, userKeysParams } from './ssh-keys.schemas.ts';

interface SshKeysRouteDeps {
  sshKeys: SshKeysService;
  users: UsersService;
  views: ViewContext;
}

const route = routesOf<SshKeysRouteDeps>('identity');

/** GitLab's SSH key endpoints, for the current user (`/user/keys`) and for any user (`/users/:user_id/keys`). */
export const sshKeysRoutes = [
  route.list({
    path: '/api/v4/user/keys',
    access: 'user',
    scope: 'read_user',
    input: ownKeysParams,
    handle: async ({ caller, window, deps: { sshKeys, users, views } }) => {
      const owner = await users.find(caller.userId);
      const page = await sshKeys.list(owner, window);
      return { ...page, items: page.items.map((key) => sshKeyView(key, owner, views)) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/user/keys/:key_id',
    access: 'user',
    scope: 'read_user',
    input: ownKeyParams,
    handle: async ({ caller, input, deps: { sshKeys, users, views } }) => {
      const owner = await users.find(caller.userId);
      return sshKeyView(await sshKeys.get(owner, input.key_id), owner, views);
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/user/keys',
    access: 'user',
    scope: 'api',
    input: addSshKeyParams,
    status: 201,
    handle: async ({ caller, input, deps: { sshKeys, users, views } }) => {
      const owner = await users.find(caller.userId);
      return sshKeyView(await sshKeys.add(caller, owner, input), owner, views);
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/user/keys/:key_id',
    access: 'user',
    scope: 'api',
    input: ownKeyParams,
    status: 204,
    handle: async ({ caller, input, deps: { sshKeys, users } }) => {
      await sshKeys.remove(caller, await users.find(caller.userId), input.key_id);
    },
  }),

  route.list({
    path: '/api/v4/users/:user_id/keys',
    access: 'anonymous',
    scope: 'read_user',
    input: userKeysParams,
    handle: async ({ input, window, deps: { sshKeys, users, views } }) => {
      const owner = await users.find(input.user_id);
      const page = await sshKeys.list(owner, window);
      return { ...page, items: page.items.map((key) => sshKeyView(key, owner, views)) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/users/:user_id/keys/:key_id',
    access: 'anonymous',
    scope: 'read_user',
    input: userKeyParams,
    handle: async ({ input, deps: { sshKeys, users, views } }) => {
      const owner = await users.find(input.user_id);
      return sshKeyView(await sshKeys.get(owner, input.key_id), owner, views);
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/users/:user_id/keys',
    access: 'administrator',
    scope: 'api',
    input: addUserSshKeyParams,
    status: 201,
    handle: async ({ caller, input: { user_id, ...key }, deps: { sshKeys, users, views } }) => {
      const owner = await users.find(user_id);
      return sshKeyView(await sshKeys.add(caller, owner, key), owner, views);
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/users/:user_id/keys/:key_id',
    access: 'administrator',
    scope: 'api',
    input: userKeyParams,
    status: 204,
    handle: async ({ caller, input, deps: { sshKeys, users } }) => {
      await sshKeys.remove(caller, await users.find(input.user_id), input.key_id);
    },
  }),
];
