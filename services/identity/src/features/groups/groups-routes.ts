import { actorOf } from '@platform/auth';
import { idOrPathParams, keysetHeaders, keysetOf, pageParams, reply, routesOf } from '@platform/http';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { Viewer } from '../access/access-sql.ts';
import type { AccessPolicy } from '../access/access-policy.ts';
import { projectListFilter, projectOrder, type ProjectsService } from '../projects/projects-service.ts';
import { groupProjectListQuery, sharedProjectListQuery } from '../projects/projects.schemas.ts';
import { projectListViews } from '../projects/project-views.ts';
import { groupListFilter, type GroupsService } from './groups-service.ts';
import { groupDetailsView, groupListViews } from './group-views.ts';
import {
  createGroupParams,
  groupListQuery,
  groupQuery,
  shareGroupParams,
  subgroupListQuery,
  unshareGroupParams,
  updateGroupParams,
} from './groups.schemas.ts';

interface GroupsRouteDeps {
  groups: GroupsService;
  projects: ProjectsService;
  access: AccessPolicy;
  views: NamespaceViewContext;
}

const route = routesOf<GroupsRouteDeps>('identity');

/** A group's details after a change; changes show its projects, except creation which has none. */
function details(deps: GroupsRouteDeps, viewer: Viewer, idOrPath: number | string, withProjects = true) {
  return groupDetailsView({ ...deps, viewer, idOrPath, withProjects, withCustomAttributes: false });
}

const subgroupRoute = (path: '/api/v4/groups/:id/subgroups' | '/api/v4/groups/:id/descendant_groups', descendants: boolean) =>
  route({
    method: 'GET',
    path,
    access: 'anonymous',
    scope: 'read_api',
    input: subgroupListQuery,
    handle: async ({ caller, input, deps: { groups, access, views }, page }) => {
      const viewer = await access.viewerOf(caller);
      const window = pageParams(input);
      const result = await groups.subgroups({
        viewer,
        idOrPath: input.id,
        descendants,
        filter: groupListFilter(viewer, input),
        order: { by: input.order_by ?? 'name', sort: input.sort ?? 'asc' },
        page: { offset: window.offset, limit: window.perPage },
      });
      return page(window, {
        ...result,
        items: await groupListViews({ groups, viewer, items: result.items, query: input, views }),
      });
    },
  });

export const groupsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/groups',
    access: 'anonymous',
    scope: 'read_api',
    input: groupListQuery,
    handle: async ({ caller, input, deps: { groups, access, views }, page, request }) => {
      const viewer = await access.viewerOf(caller);
      const window = pageParams(input);
      const keyset = keysetOf(input);
      if (keyset) {
        const found = await groups.listAfter(viewer, groupListFilter(viewer, input), {
          ...keyset,
          sort: input.sort ?? 'asc',
          limit: window.perPage,
        });
        const body = await groupListViews({ groups, viewer, items: found.items, query: input, views });
        return reply({ headers: keysetHeaders(request, { perPage: window.perPage, items: found.items, hasMore: found.hasMore }), body });
      }
      const order = { by: input.order_by ?? 'name', sort: input.sort ?? 'asc' } as const;
      const result = await groups.list(viewer, groupListFilter(viewer, input), order, { offset: window.offset, limit: window.perPage });
      return page(window, {
        ...result,
        items: await groupListViews({ groups, viewer, items: result.items, query: input, views }),
      });
    },
  }),

  subgroupRoute('/api/v4/groups/:id/subgroups', false),
  subgroupRoute('/api/v4/groups/:id/descendant_groups', true),

  route({
    method: 'GET',
    path: '/api/v4/groups/:id/projects',
    access: 'anonymous',
    scope: 'read_api',
    input: groupProjectListQuery,
    handle: async ({ caller, input, deps: { projects, access, views }, page }) => {
      const viewer = await access.viewerOf(caller);
      const window = pageParams(input);
      const result = await projects.groupProjects({
        viewer,
        groupIdOrPath: input.id,
        includeSubgroups: input.include_subgroups ?? false,
        withShared: input.with_shared ?? true,
        filter: { ...projectListFilter(viewer, input), ...(input.with_security_reports ? { withSecurityReports: true } : {}) },
        order: projectOrder(input),
        page: { offset: window.offset, limit: window.perPage },
      });
      return page(window, {
        ...result,
        items: await projectListViews({ projects, viewer, items: result.items, query: input, views }),
      });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/groups/:id/projects/shared',
    access: 'anonymous',
    scope: 'read_api',
    input: sharedProjectListQuery,
    handle: async ({ caller, input, deps: { projects, access, views }, page }) => {
      const viewer = await access.viewerOf(caller);
      const window = pageParams(input);
      const result = await projects.sharedProjects({
        viewer,
        groupIdOrPath: input.id,
        filter: projectListFilter(viewer, input),
        order: projectOrder(input),
        page: { offset: window.offset, limit: window.perPage },
      });
      return page(window, {
        ...result,
        items: await projectListViews({ projects, viewer, items: result.items, query: input, views }),
      });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/groups',
    access: 'user',
    scope: 'api',
    input: createGroupParams,
    status: 201,
    handle: async ({ caller, input, deps }) => {
      const viewer = await deps.access.viewerOf(caller);
      const group = await deps.groups.create(viewer, actorOf(caller), input);
      return details(deps, viewer, group.id, false);
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/groups/:id',
    access: 'anonymous',
    scope: 'read_api',
    input: groupQuery,
    handle: async ({ caller, input, deps }) =>
      groupDetailsView({
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
    handle: async ({ caller, input, deps }) => {
      const viewer = await deps.access.viewerOf(caller);
      const group = await deps.groups.update(viewer, actorOf(caller), input);
      return details(deps, viewer, group.id);
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/groups/:id',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 202,
    handle: async ({ caller, input, deps: { groups, access } }) => {
      await groups.delete(await access.viewerOf(caller), actorOf(caller), input.id);
      return { message: '202 Accepted' };
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/groups/:id/share',
    access: 'user',
    scope: 'api',
    input: shareGroupParams,
    status: 201,
    handle: async ({ caller, input, deps }) => {
      const viewer = await deps.access.viewerOf(caller);
      const group = await deps.groups.share(viewer, actorOf(caller), input);
      return details(deps, viewer, group.id);
    },
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
];
