import { actorOf } from '@platform/auth';
import { routesOf } from '@platform/http';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import type { MembersService } from './members-service.ts';
import { memberView } from './member-views.ts';
import { addMemberParams, memberListQuery, memberParams, updateMemberParams } from './members.schemas.ts';

const route = routesOf<{ members: MembersService; access: AccessPolicy; views: NamespaceViewContext }>('identity');

/** GitLab's member endpoints, the same for groups and projects; `/members/all` adds inherited members. */
export const membersRoutes = (
  [
    {
      type: 'Group',
      members: '/api/v4/groups/:id/members',
      member: '/api/v4/groups/:id/members/:user_id',
      allMembers: '/api/v4/groups/:id/members/all',
      anyMember: '/api/v4/groups/:id/members/all/:user_id',
    },
    {
      type: 'Project',
      members: '/api/v4/projects/:id/members',
      member: '/api/v4/projects/:id/members/:user_id',
      allMembers: '/api/v4/projects/:id/members/all',
      anyMember: '/api/v4/projects/:id/members/all/:user_id',
    },
  ] as const
).flatMap(({ type, members: membersPath, member: memberPath, allMembers, anyMember }) => [
  // `/members/all` comes first: `/members/:user_id` would otherwise take `all` for a user id.
  ...(
    [
      { inherited: true, list: allMembers, single: anyMember },
      { inherited: false, list: membersPath, single: memberPath },
    ] as const
  ).flatMap(({ inherited, list, single }) => [
    route.list({
      path: list,
      access: 'anonymous',
      scope: 'read_api',
      input: memberListQuery,
      handle: async ({ caller, input, window, deps: { members, access, views } }) => {
        const result = await members.list({
          viewer: await access.viewerOf(caller),
          type,
          idOrPath: input.id,
          inherited,
          filter: {
            ...(input.query ? { query: input.query } : {}),
            ...(input.user_ids ? { userIds: input.user_ids } : {}),
            ...(input.skip_users ? { skipUserIds: input.skip_users } : {}),
          },
          page: window,
        });
        return { ...result, items: result.items.map((entry) => memberView(entry, views)) };
      },
    }),

    route({
      method: 'GET',
      path: single,
      access: 'anonymous',
      scope: 'read_api',
      input: memberParams,
      handle: async ({ caller, input, deps: { members, access, views } }) =>
        memberView(
          await members.get({ viewer: await access.viewerOf(caller), type, idOrPath: input.id, userId: input.user_id, inherited }),
          views,
        ),
    }),
  ]),

  route({
    method: 'POST',
    path: membersPath,
    access: 'user',
    scope: 'api',
    input: addMemberParams(type),
    status: 201,
    handle: async ({ caller, input, deps: { members, access, views } }) => {
      const added = await members.add({
        viewer: await access.viewerOf(caller),
        actor: actorOf(caller),
        type,
        idOrPath: input.id,
        user: input.user_id !== undefined ? { id: input.user_id } : { username: input.username ?? '' },
        accessLevel: input.access_level,
        expiresAt: input.expires_at ?? null,
      });
      return memberView(added, views);
    },
  }),

  route({
    method: 'PUT',
    path: memberPath,
    access: 'user',
    scope: 'api',
    input: updateMemberParams(type),
    handle: async ({ caller, input, deps: { members, access, views } }) => {
      const updated = await members.update({
        viewer: await access.viewerOf(caller),
        actor: actorOf(caller),
        type,
        idOrPath: input.id,
        userId: input.user_id,
        accessLevel: input.access_level,
        ...(input.expires_at !== undefined ? { expiresAt: input.expires_at } : {}),
      });
      return memberView(updated, views);
    },
  }),

  route({
    method: 'DELETE',
    path: memberPath,
    access: 'user',
    scope: 'api',
    input: memberParams,
    status: 204,
    handle: async ({ caller, input, deps: { members, access } }) => {
      await members.remove({
        viewer: await access.viewerOf(caller),
        actor: actorOf(caller),
        type,
        idOrPath: input.id,
        userId: input.user_id,
      });
    },
  }),
]);
