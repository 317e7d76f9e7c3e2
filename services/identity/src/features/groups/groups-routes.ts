import { actorOf, authenticationChanged } from '@platform/auth';
import { InputError } from '@platform/errors';
import { mapPage } from '@platform/db';
import { idOrPathParams, reply, routesOf } from '@platform/http';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import { PROJECT_ORDER_DEFAULTS, projectListFilter, projectOrder, type ProjectsService } from '../projects/projects-service.ts';
import {
  GROUP_PROJECT_ORDERS,
  groupProjectListQuery,
  SHARED_PROJECT_ORDERS,
  sharedProjectListQuery,
} from '../projects/projects.schemas.ts';
import { projectListRead, projectListViews } from '../projects/project-views.ts';
import { groupListFilter, type GroupsService } from './groups-service.ts';
import { GROUP_ORDERS } from './groups-read-model.ts';
import type { AvatarStorage } from '../avatars/avatar-storage.ts';
import { groupListExtras, groupView } from './group-views.ts';
import { readChangedGroupDetails, readGroupDetails } from './group-details.ts';
import {
  createGroupParams,
  groupAvatarUploadParams,
  groupListQuery,
  groupQuery,
  shareGroupParams,
  subgroupListQuery,
  unshareGroupParams,
  updateGroupParams,
} from './groups.schemas.ts';
import { avatarDownload } from '../avatars/avatar-download.ts';

interface GroupsRouteDeps {
  groups: GroupsService;
  avatars: AvatarStorage;
  projects: ProjectsService;
  access: AccessPolicy;
  views: NamespaceViewContext;
}

const route = routesOf<GroupsRouteDeps>('identity');

/** `order_by` and `sort` of group lists, as GitLab defaults them. */
const groupOrder = { by: GROUP_ORDERS, default: 'name', sort: 'asc' } as const;

const subgroupRoute = (path: '/api/v4/groups/:id/subgroups' | '/api/v4/groups/:id/descendant_groups', descendants: boolean) =>
  route.list({
    path,
    access: 'anonymous',
    scope: 'read_api',
    input: subgroupListQuery,
    order: groupOrder,
    handle: async ({ caller, input, deps: { groups, access, views }, window, order }) => {
      const viewer = await access.viewerOf(caller);
      const result = await groups.subgroups({
        viewer,
        idOrPath: input.id,
        descendants,
        filter: groupListFilter(viewer, input),
        order,
        window,
        extras: groupListExtras(viewer, input),
      });
      return mapPage(result, (rows) => rows.map((group) => groupView(group, views)));
    },
  });

export const groupsRoutes = [
  route.list({
    path: '/api/v4/groups',
    access: 'anonymous',
    scope: 'read_api',
    input: groupListQuery,
    order: groupOrder,
    keyset: true,
    handle: async ({ caller, input, deps: { groups, access, views }, window, order, keyset }) => {
      const viewer = await access.viewerOf(caller);
      const filter = groupListFilter(viewer, input);
      const extras = groupListExtras(viewer, input);
      if (keyset) {
        const found = await groups.listAfter({ viewer, filter, keyset, extras });
        return { items: found.items.map((group) => groupView(group, views)), hasNext: found.hasMore };
      }
      const result = await groups.list({ viewer, filter, order, window, extras });
      return mapPage(result, (rows) => rows.map((group) => groupView(group, views)));
    },
  }),

  subgroupRoute('/api/v4/groups/:id/subgroups', false),
  subgroupRoute('/api/v4/groups/:id/descendant_groups', true),

  route.list({
    path: '/api/v4/groups/:id/projects',
    access: 'anonymous',
    scope: 'read_api',
    input: groupProjectListQuery,
    order: { by: GROUP_PROJECT_ORDERS, ...PROJECT_ORDER_DEFAULTS },
    handle: async ({ caller, input, deps: { projects, access, views }, window, order }) => {
      const viewer = await access.viewerOf(caller);
      const result = await projects.groupProjects({
        viewer,
        groupIdOrPath: input.id,
        includeSubgroups: input.include_subgroups ?? false,
        withShared: input.with_shared ?? true,
        filter: { ...projectListFilter(viewer, input), ...(input.with_security_reports ? { withSecurityReports: true } : {}) },
        order: projectOrder(order, input.search),
        window,
        read: projectListRead(viewer, input),
      });
      return { items: projectListViews(result, viewer, views), total: result.total, hasNext: result.hasNext };
    },
  }),

  route.list({
    path: '/api/v4/groups/:id/projects/shared',
    access: 'anonymous',
    scope: 'read_api',
    input: sharedProjectListQuery,
    order: { by: SHARED_PROJECT_ORDERS, ...PROJECT_ORDER_DEFAULTS },
    handle: async ({ caller, input, deps: { projects, access, views }, window, order }) => {
      const viewer = await access.viewerOf(caller);
      const result = await projects.sharedProjects({
        viewer,
        groupIdOrPath: input.id,
        filter: projectListFilter(viewer, input),
        order: projectOrder(order, input.search),
        window,
        read: projectListRead(viewer, input),
      });
      return { items: projectListViews(result, viewer, views), total: result.total, hasNext: result.hasNext };
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/groups',
    access: 'user',
    scope: 'api',
    input: createGroupParams,
    status: 201,
    handle: async ({ caller, input, deps }) =>
      readChangedGroupDetails(
        deps,
        caller,
        async (viewer, actor) =>
          deps.avatars.withChange(await deps.avatars.prepare(input.avatar), (avatar) => deps.groups.create(viewer, actor, input, avatar)),
        { withProjects: false },
      ),
  }),

  route({
    method: 'GET',
    path: '/api/v4/groups/:id',
    access: 'anonymous',
    scope: 'read_api',
    input: groupQuery,
    handle: async ({ caller, input, deps }) =>
      readGroupDetails({
        ...deps,
        viewer: await deps.access.viewerOf(caller),
        idOrPath: input.id,
        withProjects: input.with_projects ?? true,
        withCustomAttributes: input.with_custom_attributes ?? false,
      }),
  }),

  route({
    method: 'PUT',
    path: '/api/v4/groups/:id',
    access: 'user',
    scope: 'api',
    input: updateGroupParams,
    handle: async ({ caller, input, deps }) =>
      readChangedGroupDetails(deps, caller, async (viewer, actor) => {
        if (input.avatar !== undefined) await deps.groups.editable(viewer, input.id);
        return deps.avatars.withChange(await deps.avatars.prepare(input.avatar), (avatar) =>
          deps.groups.update(viewer, actor, input, avatar),
        );
      }),
  }),

  // Not in GitLab's API, but where @gitbeaker/rest's Groups.uploadAvatar sends the file (as `file`).
  route({
    method: 'PUT',
    path: '/api/v4/groups/:id/avatar',
    access: 'user',
    scope: 'api',
    input: groupAvatarUploadParams,
    handle: async ({ caller, input, deps }) =>
      readChangedGroupDetails(deps, caller, async (viewer, actor) => {
        await deps.groups.editable(viewer, input.id);
        if (input.file === undefined) throw new InputError('file is missing');
        return deps.avatars.withChange(await deps.avatars.prepare(input.file), (avatar) =>
          deps.groups.update(viewer, actor, { id: input.id }, avatar),
        );
      }),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/groups/:id',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 202,
    handle: async ({ caller, input, deps: { groups, access } }) => {
      const botIds = await groups.delete(await access.viewerOf(caller), actorOf(caller), input.id);
      return reply({ headers: authenticationChanged(botIds), body: { message: '202 Accepted' } });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/groups/:id/share',
    access: 'user',
    scope: 'api',
    input: shareGroupParams,
    status: 201,
    handle: async ({ caller, input, deps }) =>
      readChangedGroupDetails(deps, caller, (viewer, actor) => deps.groups.share(viewer, actor, input)),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/groups/:id/share/:group_id',
    access: 'user',
    scope: 'api',
    input: unshareGroupParams,
    status: 204,
    handle: async ({ caller, input, deps: { groups, access } }) => {
      await groups.unshare(await access.viewerOf(caller), actorOf(caller), input.id, input.group_id);
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/groups/:id/avatar',
    access: 'anonymous',
    scope: 'read_api',
    input: idOrPathParams,
    handle: async ({ caller, input, deps: { avatars, access } }) => {
      const { group } = await access.group(await access.viewerOf(caller), input.id);
      return avatarDownload(avatars, group.avatarUrl);
    },
  }),
];
