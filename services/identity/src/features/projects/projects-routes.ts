import { actorOf, authenticationChanged, type AuthenticatedCaller, type Caller } from '@platform/auth';
import type { PageWindow } from '@platform/db';
import type { Keyset } from '../access/sql-helpers.ts';
import { ConflictError, FieldValidationError, NotModifiedError } from '@platform/errors';
import { idOrPathParams, params, reply, routesOf } from '@platform/http';
import type { NamespaceViewContext } from '../access/namespace-views.ts';
import type { Viewer } from '../access/access-sql.ts';
import { isAdmin, type AccessPolicy } from '../access/access-policy.ts';
import type { Project } from '../access/project.entity.ts';
import type { ProjectFilter, ProjectOrder } from './projects-read-model.ts';
import { PROJECT_ORDER_DEFAULTS, projectListFilter, projectOrder, type ProjectsService } from './projects-service.ts';
import type { AvatarStorage } from '../avatars/avatar-storage.ts';
import {
  projectGroupLinkView,
  projectListRead,
  projectListViews,
  projectStorageView,
  projectView,
  projectViewOptions,
} from './project-views.ts';
import {
  createProjectParams,
  deleteProjectParams,
  forkProjectParams,
  PROJECT_LIST_ORDERS,
  projectListQuery,
  projectQuery,
  type ProjectListQuery,
  userProjectListQuery,
  shareProjectParams,
  unshareProjectParams,
  updateProjectParams,
} from './projects.schemas.ts';
import { avatarDownload } from '../avatars/avatar-download.ts';

interface ProjectsRouteDeps {
  projects: ProjectsService;
  avatars: AvatarStorage;
  access: AccessPolicy;
  views: NamespaceViewContext;
}

const route = routesOf<ProjectsRouteDeps>('identity');

/** A project after a change, in the full view: read again once the change is committed, as a GET reads it. */
async function changed(deps: ProjectsRouteDeps, viewer: Viewer, change: (viewer: Viewer) => Promise<Project>) {
  const project = await change(viewer);
  return projectView(await deps.projects.details(viewer, project.id), deps.views, projectViewOptions(viewer));
}

/** The project actions that answer the project: each runs as the caller's viewer and records the caller as actor. */
function projectChange(
  apply: (projects: ProjectsService, options: { viewer: Viewer; caller: AuthenticatedCaller; id: number | string }) => Promise<Project>,
) {
  return async ({ caller, input, deps }: { caller: AuthenticatedCaller; input: { id: number | string }; deps: ProjectsRouteDeps }) =>
    changed(deps, await deps.access.viewerOf(caller), (viewer) => apply(deps.projects, { viewer, caller, id: input.id }));
}

/** `GET /projects` and the lists that narrow it (a user's projects), as the caller may see them. */
async function projectList(
  request: {
    caller: Caller;
    input: ProjectListQuery;
    deps: ProjectsRouteDeps;
    window: PageWindow;
    order: { by: ProjectOrder; sort: 'asc' | 'desc' };
    keyset: Keyset | undefined;
  },
  narrowed: Partial<ProjectFilter>,
) {
  const {
    caller,
    input,
    deps: { projects, access, views },
    window,
    order,
    keyset,
  } = request;
  const viewer = await access.viewerOf(caller);
  const filter: ProjectFilter = {
    ...projectListFilter(viewer, input),
    ...(input.search_namespaces ? { searchNamespaces: true } : {}),
    ...(input.topic ? { topics: input.topic } : {}),
    ...(input.id_after !== undefined ? { idAfter: input.id_after } : {}),
    ...(input.id_before !== undefined ? { idBefore: input.id_before } : {}),
    ...(input.last_activity_after ? { lastActivityAfter: input.last_activity_after } : {}),
    ...(input.last_activity_before ? { lastActivityBefore: input.last_activity_before } : {}),
    ...(input.custom_attributes && isAdmin(viewer) ? { customAttributes: input.custom_attributes } : {}),
    ...narrowed,
  };
  const read = projectListRead(viewer, input);
  if (keyset) {
    const found = await projects.listAfter({ viewer, filter, keyset, read });
    return { items: projectListViews(found, viewer, views), hasNext: found.hasMore };
  }
  const result = await projects.list({ viewer, filter, order: projectOrder(order, input.search), window, read });
  return { items: projectListViews(result, viewer, views), total: result.total, hasNext: result.hasNext };
}

export const projectsRoutes = [
  route.list({
    path: '/api/v4/projects',
    access: 'anonymous',
    scope: 'read_api',
    input: projectListQuery,
    order: { by: PROJECT_LIST_ORDERS, ...PROJECT_ORDER_DEFAULTS },
    keyset: true,
    handle: (request) => projectList(request, {}),
  }),

  // The projects of a user's personal namespace that the caller may see, listed as `/projects` lists them.
  route.list({
    path: '/api/v4/users/:user_id/projects',
    access: 'anonymous',
    scope: 'read_user',
    input: userProjectListQuery,
    order: { by: PROJECT_LIST_ORDERS, ...PROJECT_ORDER_DEFAULTS },
    keyset: true,
    handle: async (request) => {
      const namespaceId = await request.deps.projects.personalNamespaceIdOf(request.input.user_id);
      return projectList(request, { namespaceIds: namespaceId === null ? [] : [namespaceId] });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects',
    access: 'user',
    scope: 'api',
    input: createProjectParams,
    status: 201,
    handle: async ({ caller, input, deps }) =>
      changed(deps, await deps.access.viewerOf(caller), async (viewer) =>
        deps.avatars.withChange(await deps.avatars.prepare(input.avatar), (avatar) =>
          deps.projects.create(viewer, actorOf(caller), input, avatar),
        ),
      ),
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/fork',
    access: 'user',
    scope: 'api',
    input: forkProjectParams,
    status: 201,
    handle: async ({ caller, input, deps }) =>
      changed(deps, await deps.access.viewerOf(caller), async (viewer) => {
        try {
          return await deps.projects.fork(viewer, actorOf(caller), input);
        } catch (error) {
          // GitLab answers a fork it cannot save (a name or path taken there) with 409 and the reasons.
          if (error instanceof FieldValidationError) throw new ConflictError(error.fields);
          throw error;
        }
      }),
  }),

  route.list({
    path: '/api/v4/projects/:id/forks',
    access: 'anonymous',
    scope: 'read_api',
    input: projectListQuery.extend({ id: params.idOrPath() }),
    order: { by: PROJECT_LIST_ORDERS, ...PROJECT_ORDER_DEFAULTS },
    handle: async ({ caller, input, deps: { projects, access, views }, window, order }) => {
      const viewer = await access.viewerOf(caller);
      const result = await projects.forks({
        viewer,
        idOrPath: input.id,
        filter: projectListFilter(viewer, input),
        order: projectOrder(order, input.search),
        window,
        read: projectListRead(viewer, input),
      });
      return { items: projectListViews(result, viewer, views), total: result.total, hasNext: result.hasNext };
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/fork',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 204,
    handle: async ({ caller, input, deps: { projects, access } }) => {
      if (!(await projects.unlinkFork(await access.viewerOf(caller), actorOf(caller), input.id))) throw new NotModifiedError();
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id',
    access: 'anonymous',
    scope: 'read_api',
    input: projectQuery,
    handle: async ({ caller, input, deps: { projects, access, views } }) => {
      const viewer = await access.viewerOf(caller);
      const project = await projects.details(viewer, input.id, {
        customAttributes: isAdmin(viewer) && input.with_custom_attributes === true,
      });
      return projectView(project, views, {
        ...projectViewOptions(viewer),
        ...(viewer.kind === 'user' ? { permissions: project.permissions } : {}),
      });
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/storage',
    access: 'administrator',
    scope: 'read_api',
    input: idOrPathParams,
    handle: async ({ caller, input, deps: { access } }) => {
      const { project } = await access.project(await access.viewerOf(caller), input.id);
      return projectStorageView(project);
    },
  }),

  route({
    method: 'PUT',
    path: '/api/v4/projects/:id',
    access: 'user',
    scope: 'api',
    input: updateProjectParams,
    handle: async ({ caller, input, deps }) =>
      changed(deps, await deps.access.viewerOf(caller), async (viewer) => {
        if (input.avatar !== undefined) await deps.projects.editable(viewer, input.id);
        return deps.avatars.withChange(await deps.avatars.prepare(input.avatar), (avatar) =>
          deps.projects.update(viewer, actorOf(caller), input, avatar),
        );
      }),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id',
    access: 'user',
    scope: 'api',
    input: deleteProjectParams,
    status: 202,
    handle: async ({ caller, input, deps: { projects, access } }) => {
      const botIds = await projects.delete(await access.viewerOf(caller), actorOf(caller), input.id, {
        permanentlyRemove: input.permanently_remove,
        fullPath: input.full_path,
      });
      return reply({ headers: authenticationChanged(botIds), body: { message: '202 Accepted' } });
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/restore',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 201,
    handle: projectChange((projects, { viewer, caller, id }) => projects.restore(viewer, actorOf(caller), id)),
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/archive',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 201,
    handle: projectChange((projects, { viewer, caller, id }) => projects.setArchived(viewer, actorOf(caller), id, true)),
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/unarchive',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 201,
    handle: projectChange((projects, { viewer, caller, id }) => projects.setArchived(viewer, actorOf(caller), id, false)),
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/share',
    access: 'user',
    scope: 'api',
    input: shareProjectParams,
    status: 201,
    handle: async ({ caller, input, deps: { projects, access } }) =>
      projectGroupLinkView(await projects.share(await access.viewerOf(caller), actorOf(caller), input)),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/share/:group_id',
    access: 'user',
    scope: 'api',
    input: unshareProjectParams,
    status: 204,
    handle: async ({ caller, input, deps: { projects, access } }) => {
      await projects.unshare(await access.viewerOf(caller), actorOf(caller), input.id, input.group_id);
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/star',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 201,
    handle: projectChange((projects, { viewer, id }) => projects.star(viewer, id)),
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/unstar',
    access: 'user',
    scope: 'api',
    input: idOrPathParams,
    status: 201,
    handle: projectChange((projects, { viewer, id }) => projects.unstar(viewer, id)),
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/avatar',
    access: 'anonymous',
    scope: 'read_api',
    input: idOrPathParams,
    handle: async ({ caller, input, deps: { avatars, access } }) => {
      const { project } = await access.project(await access.viewerOf(caller), input.id);
      return avatarDownload(avatars, project.avatarUrl);
    },
  }),
];
