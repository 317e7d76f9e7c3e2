import { z } from 'zod';
import { InputError, NotFoundError } from '@platform/errors';
import { authenticationChanged } from '@platform/auth';
import { jsonArrayText, jsonText, params, reply, routesOf } from '@platform/http';
import { mapPage } from '@platform/db';
import type { UsersService } from './users-service.ts';
import type { AvatarStorage } from '../avatars/avatar-storage.ts';
import { avatarUrlOf, basicUserView, type ViewContext } from './user-views.ts';
import type { UserJson } from './users-read-model.ts';
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

/** A page of views PostgreSQL built, as one JSON array. */
function pageOf(items: UserJson[]) {
  return jsonArrayText(`[${items.map((item) => item.json).join(',')}]`, items.length, items.at(-1)?.id);
}

export const usersRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/user',
    access: 'user',
    scope: 'read_user',
    input: z.object({}),
    handle: async ({ caller, deps: { users } }) => jsonText((await users.read(caller.userId, { view: 'current' })).json),
  }),

  route.list({
    path: '/api/v4/users',
    access: 'anonymous',
    scope: 'read_user',
    input: listUsersParams,
    keyset: true,
    handle: async ({ caller, input, window, keyset, deps: { users, views } }) => {
      if (!(caller.kind === 'user' && caller.isAdmin)) {
        const page = await users.list(caller, input, { read: { view: 'basic' }, window, keyset });
        return mapPage(page, (rows) => rows.map((user) => basicUserView(user, views)));
      }
      // Custom attributes are for administrators' eyes only, as in GitLab.
      const view = input.with_custom_attributes ? 'adminWithAttributes' : 'admin';
      const { items, ...page } = await users.list(caller, input, { read: { view }, window, keyset });
      return { ...page, items: pageOf(items) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/users/:id',
    access: 'anonymous',
    scope: 'read_user',
    input: singleUserParams,
    handle: async ({ caller, input, deps: { users } }) => {
      if (caller.kind === 'user' && caller.isAdmin) {
        const view = input.with_custom_attributes ? 'adminSingleWithAttributes' : 'adminSingle';
        return jsonText((await users.read(input.id, { view })).json);
      }
      const user = await users.read(input.id, { view: 'profile', viewerId: caller.kind === 'user' ? caller.userId : undefined });
      // Anonymous callers see active users only.
      if (caller.kind === 'anonymous' && user.state !== 'active') throw new NotFoundError('User');
      return jsonText(user.json);
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/users',
    access: 'administrator',
    scope: 'api',
    input: createUserParams,
    status: 201,
    handle: async ({ caller, input, deps: { users, avatars } }) => {
      const user = await avatars.withChange(await avatars.prepare(input.avatar), (avatar) => users.create(caller, input, avatar));
      // Read again once committed: the bytes a GET answers.
      return jsonText((await users.read(user.id, { view: 'adminSingle' })).json);
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/users/:id',
    access: 'administrator',
    scope: 'api',
    input: updateUserParams,
    handle: async ({ caller, input, deps: { users, avatars } }) => {
      const user = await avatars.withChange(await avatars.prepare(input.avatar), (avatar) => users.update(caller, input, avatar));
      const view = jsonText((await users.read(user.id, { view: 'adminSingle' })).json);
      // The administrator flag, the name or the username the gateway signs may have changed.
      return reply({ headers: authenticationChanged([user.id]), body: view });
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
      const user = await avatars.withChange(await avatars.prepare(input.avatar), (avatar) =>
        users.update(caller, { id: caller.userId }, avatar),
      );
      return { avatar_url: avatarUrlOf(user, views) };
    },
  }),
];
