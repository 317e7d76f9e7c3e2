import { Router, type Request, type Response } from 'express';
import type { Page } from '@platform/db';
import { actorOf, requireUser } from '@platform/auth';
import { asyncHandler, callerOf, pageParams, parseParams, requestParams, sendPage, type PageRequest, idOrPathParams } from '@platform/http';
import type { NamespaceViewContext } from '../namespaces/namespace-views.ts';
import type { Viewer } from '../members/access-sql.ts';
import { isAdmin, type AccessPolicy } from '../members/access-policy.ts';
import type { Project } from './project.entity.ts';
import type { ProjectFilter, ProjectOrder } from './projects-store.ts';
import type { ProjectsService } from './projects-service.ts';
import { projectGroupLinkView, projectView, simpleProjectView } from './project-views.ts';
import {
  createProjectParams,
  projectListQuery,
  projectQuery,
  shareProjectParams,
  unshareProjectParams,
  updateProjectParams,
  type ProjectListQuery,
} from './projects.schemas.ts';

/**
 * Filters every project list shares, from its query. `owned` means Owner access, as GitLab's
 * owned projects are; `membership` any access.
 */
export function projectListFilter(
  viewer: Viewer,
  query: Partial<
    Pick<
      ProjectListQuery,
      | 'archived'
      | 'visibility'
      | 'search'
      | 'min_access_level'
      | 'owned'
      | 'membership'
      | 'starred'
      | 'with_issues_enabled'
      | 'with_merge_requests_enabled'
    >
  >,
): ProjectFilter {
  const userId = viewer.kind === 'user' ? viewer.userId : 0;
  const minimum = Math.max(query.min_access_level ?? 0, query.owned ? 50 : 0, query.membership ? 10 : 0);
  return {
    ...(query.archived !== undefined ? { archived: query.archived } : {}),
    ...(query.visibility ? { visibility: query.visibility } : {}),
    ...(query.search ? { search: query.search } : {}),
    ...(minimum > 0 ? { minAccessLevel: minimum } : {}),
    ...(query.starred ? { starredBy: userId } : {}),
    ...(query.with_issues_enabled ? { withIssuesEnabled: true } : {}),
    ...(query.with_merge_requests_enabled ? { withMergeRequestsEnabled: true } : {}),
  };
}

export function projectOrder(query: {
  order_by?: ProjectOrder | undefined;
  sort?: 'asc' | 'desc' | undefined;
  search?: string | undefined;
}) {
  return { by: query.order_by ?? 'created_at', sort: query.sort ?? 'desc', ...(query.search ? { search: query.search } : {}) };
}

/** Sends a page of projects in the full or `simple` view, with custom attributes for administrators who ask. */
export async function sendProjectPage(options: {
  req: Request;
  res: Response;
  projects: ProjectsService;
  viewer: Viewer;
  result: Page<Project>;
  page: PageRequest;
  simple?: boolean | undefined;
  withCustomAttributes?: boolean | undefined;
  views: NamespaceViewContext;
}): Promise<void> {
  const { projects, viewer, result, views } = options;
  const data = await projects.viewData(viewer, result.items, {
    customAttributes: isAdmin(viewer) && options.withCustomAttributes === true,
  });
  const items = result.items.map((project) =>
    options.simple ? simpleProjectView(project, data, views) : projectView(project, data, views),
  );
  sendPage(options.req, options.res, { page: options.page, total: result.total, hasNext: result.hasNext, items });
}

export function projectsRoutes(options: { projects: ProjectsService; access: AccessPolicy; views: NamespaceViewContext }): Router {
  const { projects, access, views } = options;
  const router = Router();

  async function single(req: Request, res: Response, viewer: Viewer, project: Project, status = 200) {
    const data = await projects.viewData(viewer, [project]);
    res.status(status).json(projectView(project, data, views));
  }

  router.get(
    '/api/v4/projects',
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(callerOf(req));
      const query = parseParams(projectListQuery, requestParams(req));
      const page = pageParams(query);
      const filter: ProjectFilter = {
        ...projectListFilter(viewer, query),
        ...(query.search_namespaces ? { searchNamespaces: true } : {}),
        ...(query.topic ? { topics: query.topic } : {}),
        ...(query.id_after !== undefined ? { idAfter: query.id_after } : {}),
        ...(query.id_before !== undefined ? { idBefore: query.id_before } : {}),
        ...(query.last_activity_after ? { lastActivityAfter: query.last_activity_after } : {}),
        ...(query.last_activity_before ? { lastActivityBefore: query.last_activity_before } : {}),
        ...(query.custom_attributes && isAdmin(viewer) ? { customAttributes: query.custom_attributes } : {}),
      };
      const result = await projects.list(viewer, filter, projectOrder(query), { offset: page.offset, limit: page.perPage });
      await sendProjectPage({
        req,
        res,
        projects,
        viewer,
        result,
        page,
        simple: query.simple,
        withCustomAttributes: query.with_custom_attributes,
        views,
      });
    }),
  );

  router.post(
    '/api/v4/projects',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const viewer = await access.viewerOf(caller);
      const input = parseParams(createProjectParams, requestParams(req));
      const project = await projects.create(viewer, actorOf(caller), input);
      await single(req, res, viewer, project, 201);
    }),
  );

  router.get(
    '/api/v4/projects/:id',
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(callerOf(req));
      const query = parseParams(projectQuery, requestParams(req));
      const { project, permissions } = await projects.get(viewer, query.id);
      const data = await projects.viewData(viewer, [project], {
        customAttributes: isAdmin(viewer) && query.with_custom_attributes === true,
      });
      res.json(projectView(project, data, views, viewer.kind === 'user' ? { permissions } : {}));
    }),
  );

  router.put(
    '/api/v4/projects/:id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const viewer = await access.viewerOf(caller);
      const input = parseParams(updateProjectParams, requestParams(req));
      await single(req, res, viewer, await projects.update(viewer, actorOf(caller), input));
    }),
  );

  router.delete(
    '/api/v4/projects/:id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { id } = parseParams(idOrPathParams, req.params);
      await projects.delete(await access.viewerOf(caller), actorOf(caller), id);
      res.status(202).json({ message: '202 Accepted' });
    }),
  );

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    router.post(
      `/api/v4/projects/:id/${action}`,
      asyncHandler(async (req, res) => {
        const caller = requireUser(callerOf(req));
        const viewer = await access.viewerOf(caller);
        const { id } = parseParams(idOrPathParams, req.params);
        await single(req, res, viewer, await projects.setArchived(viewer, actorOf(caller), id, archived), 201);
      }),
    );
  }

  router.post(
    '/api/v4/projects/:id/share',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const input = parseParams(shareProjectParams, requestParams(req));
      const link = await projects.share(await access.viewerOf(caller), actorOf(caller), input);
      res.status(201).json(projectGroupLinkView(link));
    }),
  );

  router.delete(
    '/api/v4/projects/:id/share/:group_id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const input = parseParams(unshareProjectParams, req.params);
      await projects.unshare(await access.viewerOf(caller), actorOf(caller), input.id, input.group_id);
      res.status(204).end();
    }),
  );

  for (const [action, apply] of [
    ['star', (viewer: Viewer, id: number | string) => projects.star(viewer, id)],
    ['unstar', (viewer: Viewer, id: number | string) => projects.unstar(viewer, id)],
  ] as const) {
    router.post(
      `/api/v4/projects/:id/${action}`,
      asyncHandler(async (req, res) => {
        const viewer = await access.viewerOf(callerOf(req));
        const { id } = parseParams(idOrPathParams, req.params);
        await single(req, res, viewer, await apply(viewer, id), 201);
      }),
    );
  }

  return router;
}
