import { routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess } from '@platform/identity-client';
import type { UserListsService } from './user-lists-service.ts';
import { userListView } from './feature-flags-views.ts';
import { createUserListBody, updateUserListBody, userListParams, userListQuery } from './feature-flags.schemas.ts';

export interface UserListsRouteDeps {
  access: IdentityAccess;
  userLists: UserListsService;
}

const route = routesOf<UserListsRouteDeps>('delivery');

/** GitLab's feature flag user lists API, for developers and above; a list is named by its `iid`. */
export const userListsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/feature_flags_user_lists',
    access: 'user',
    scope: 'read_api',
    input: userListQuery,
    handle: async ({ caller, input, deps, window }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      const page = await deps.userLists.list(project, { search: input.search, window });
      return { ...page, items: page.items.map(userListView) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/feature_flags_user_lists/:iid',
    access: 'user',
    scope: 'read_api',
    input: userListParams,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      return userListView(await deps.userLists.get(project, input.iid));
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/feature_flags_user_lists',
    access: 'user',
    scope: 'api',
    status: 201,
    input: createUserListBody,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      return userListView(await deps.userLists.create(project, { name: input.name, userXids: input.user_xids }));
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/feature_flags_user_lists/:iid',
    access: 'user',
    scope: 'api',
    input: updateUserListBody,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      return userListView(await deps.userLists.update(project, input.iid, { name: input.name, userXids: input.user_xids, caller }));
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/feature_flags_user_lists/:iid',
    access: 'user',
    scope: 'api',
    status: 204,
    input: userListParams,
    handle: async ({ caller, input, deps }) => {
      const project = await requireProjectAccess({ ...deps, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.DEVELOPER });
      await deps.userLists.delete(project, input.iid);
    },
  }),
];
