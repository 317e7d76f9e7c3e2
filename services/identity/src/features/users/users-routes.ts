import { z } from 'zod';
import { InputError, NotFoundError } from '@platform/errors';
import { authenticationChanged } from '@platform/auth';
import { params, reply, routesOf } from '@platform/http';
import { mapPage } from '@platform/db';
import type { UsersService } from './users-service.ts';
import type { AvatarStorage } from '../avatars/avatar-storage.ts';
import {
  adminSingleUserView,
  adminUserView,
  avatarUrlOf,
  basicUserView,
  currentUserView,
  profileViewFor,
  withAttributesOf,
  type ViewContext,
} from './user-views.ts';
import {
  createUserParams,
  deleteIdentityParams,
  deleteUserParams,
  listUsersParams,
  singleUserParams,
  updateUserParams,
  userIdParams,
} from './users.schemas.ts';

export interface UsersRouteDeps {
  users: UsersService;
  avatars: AvatarStorage;
  views: ViewContext;
}

const route = routesOf<UsersRouteDeps>('identity');

export const usersRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/user',
    access: 'user',
    scope: 'read_user',
    input: z.object({}),
    handle: async ({ caller, deps: { users, views } }) => {
      const user = await users.read(caller.userId, { view: 'full' });
      return currentUserView(user, user.identities, views);
    },
  }),

  route.list({
    path: '/api/v4/users',
    access: 'anonymous',
    scope: 'read_user',
    input: listUsersParams,
    keyset: true,
    handle: async ({ caller, input, window, keyset, deps: { users, views } }) => {
      if (!(caller.kind === 'user' && caller.isAdmin)) {
        const page = await users.list(caller, input, { view: 'basic', window, keyset });
        return mapPage(page, (rows) => rows.map((user) => basicUserView(user, views)));
      }
      // Custom attributes are for administrators' eyes only, as in GitLab.
      const page = await users.list(caller, input, { view: 'full', customAttributes: input.with_custom_attributes, window, keyset });
      return mapPage(page, (rows) => rows.map((user) => withAttributesOf(user, adminUserView(user, user.identities, views))));
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/users/:id',
    access: 'anonymous',
    scope: 'read_user',
    input: singleUserParams,
    handle: async ({ caller, input, deps: { users, views } }) => {
      if (caller.kind === 'user' && caller.isAdmin) {
        const user = await users.read(input.id, { view: 'full', customAttributes: input.with_custom_attributes });
        return withAttributesOf(user, adminSingleUserView(user, user.identities, views));
      }
      const user = await users.read(input.id, { view: 'public' });
      // Anonymous callers see active users only.
      if (caller.kind === 'anonymous' && user.state !== 'active') throw new NotFoundError('User');
      return profileViewFor({ user, caller, context: views });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/users',
    access: 'administrator',
    scope: 'api',
    input: createUserParams,
    status: 201,
    handle: async ({ caller, input, deps: { users, avatars, views } }) => {
      const { user, identities } = await avatars.withChange(await avatars.prepare(input.avatar), (avatar) =>
        users.create(caller, input, avatar),
      );
      return adminSingleUserView(user, identities, views);
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/users/:id',
    access: 'administrator',
    scope: 'api',
    input: updateUserParams,
    handle: async ({ caller, input, deps: { users, avatars, views } }) => {
      const { user, identities } = await avatars.withChange(await avatars.prepare(input.avatar), (avatar) =>
        users.update(caller, input, avatar),
      );
      // The administrator flag, the name or the username the gateway signs may have changed.
      return reply({ headers: authenticationChanged([user.id]), body: adminSingleUserView(user, identities, views) });
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/users/:id',
    access: 'administrator',
    scope: 'api',
    input: deleteUserParams,
    status: 204,
    handle: async ({ caller, input, deps: { users } }) => {
      await users.delete(caller, { id: input.id, hardDelete: input.hard_delete === true });
      return reply({ headers: authenticationChanged([input.id]) });
    },
  }),

  // State changes answer 201 with `true`, or as GitLab answers a request that changed nothing:
  // `null` (block, deactivate) or `false` (unblock). Each names the user whose tokens it affects.
  route({
    method: 'POST',
    path: '/api/v4/users/:id/block',
    access: 'administrator',
    scope: 'api',
    input: userIdParams,
    status: 201,
    handle: async ({ caller, input, deps: { users } }) =>
      reply({ headers: authenticationChanged([input.id]), body: (await users.block(caller, input.id)) ? true : null }),
  }),

  route({
    method: 'POST',
    path: '/api/v4/users/:id/unblock',
    access: 'administrator',
    scope: 'api',
    input: userIdParams,
    status: 201,
    handle: async ({ caller, input, deps: { users } }) =>
      reply({ headers: authenticationChanged([input.id]), body: await users.unblock(caller, input.id) }),
  }),

  route({
    method: 'POST',
    path: '/api/v4/users/:id/deactivate',
    access: 'administrator',
    scope: 'api',
    input: userIdParams,
    status: 201,
    handle: async ({ caller, input, deps: { users } }) =>
      reply({ headers: authenticationChanged([input.id]), body: (await users.deactivate(caller, input.id)) ? true : null }),
  }),

  route({
    method: 'POST',
    path: '/api/v4/users/:id/activate',
    access: 'administrator',
    scope: 'api',
    input: userIdParams,
    status: 201,
    handle: async ({ caller, input, deps: { users } }) => {
      await users.activate(caller, input.id);
      return reply({ headers: authenticationChanged([input.id]), body: true });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/users/:id/ban',
    access: 'administrator',
    scope: 'api',
    input: userIdParams,
    status: 201,
    handle: async ({ caller, input, deps: { users } }) => {
      await users.ban(caller, input.id);
      return reply({ headers: authenticationChanged([input.id]), body: true });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/users/:id/unban',
    access: 'administrator',
    scope: 'api',
    input: userIdParams,
    status: 201,
    handle: async ({ caller, input, deps: { users } }) => {
      await users.unban(caller, input.id);
      return reply({ headers: authenticationChanged([input.id]), body: true });
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/users/:id/identities/:provider',
    access: 'administrator',
    scope: 'api',
    input: deleteIdentityParams,
    status: 204,
    handle: async ({ caller, input, deps: { users } }) => {
      await users.removeIdentity(caller, input);
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/user/avatar',
    access: 'user',
    scope: 'api',
    // Optional to the schema, so that leaving it out is named as Grape names it.
    input: z.object({ avatar: params.file().optional() }),
    handle: async ({ caller, input, deps: { avatars, users, views } }) => {
      if (!input.avatar) throw new InputError('avatar is missing');
      const { user } = await avatars.withChange(await avatars.prepare(input.avatar), (avatar) =>
        users.update(caller, { id: caller.userId }, avatar),
      );
      return { avatar_url: avatarUrlOf(user, views) };
    },
  }),
];
