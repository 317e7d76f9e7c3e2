import { Router, type Request, type Response } from 'express';
import { mapPage, type Page } from '@platform/db';
import { actorOf, requireUser } from '@platform/auth';
import { asyncHandler, callerOf, pageParams, parseParams, requestParams, sendPage, type PageRequest, idOrPathParams } from '@platform/http';
import type { Group } from '../namespaces/namespace.entity.ts';
import type { NamespaceViewContext } from '../namespaces/namespace-views.ts';
import type { Viewer } from '../members/access-sql.ts';
import { isAdmin, type AccessPolicy } from '../members/access-policy.ts';
import type { ProjectsService } from '../projects/projects-service.ts';
import { projectListFilter, projectOrder, sendProjectPage } from '../projects/projects-routes.ts';
import { groupProjectListQuery, sharedProjectListQuery } from '../projects/projects.schemas.ts';
import { projectView } from '../projects/project-views.ts';
import { groupListFilter, type GroupsService } from './groups-service.ts';
import { groupView, sharedWithGroupView } from './group-views.ts';
import {
  createGroupParams,
  groupListQuery,
  groupQuery,
  shareGroupParams,
  subgroupListQuery,
  unshareGroupParams,
  updateGroupParams,
  type GroupListQuery,
} from './groups.schemas.ts';

/** The deprecated `projects` and `shared_projects` of group details hold at most this many each. */
const DETAIL_PROJECTS_LIMIT = 100;

export function groupsRoutes(options: {
  groups: GroupsService;
  projects: ProjectsService;
  access: AccessPolicy;
  views: NamespaceViewContext;
}): Router {
  const { groups, projects, access, views } = options;
  const router = Router();

  async function sendGroupPage(req: Request, res: Response, viewer: Viewer, query: GroupListQuery, page: PageRequest, result: Page<Group>) {
    const admin = isAdmin(viewer);
    const data = await groups.viewData(result.items, {
      customAttributes: admin && query.with_custom_attributes === true,
      statistics: admin && query.statistics === true,
    });
    sendPage(req, res, { page, ...mapPage(result, (items) => items.map((group) => groupView(group, data, views))) });
  }

  /** Group details: the list view plus shares, the runners token for its administrators, and its projects. */
  async function sendDetails(
    res: Response,
    viewer: Viewer,
    idOrPath: number | string,
    options: { withProjects: boolean; withCustomAttributes: boolean; status?: number },
  ) {
    const { group, shares, canAdminister } = await groups.details(viewer, idOrPath);
    const data = await groups.viewData([group], { customAttributes: isAdmin(viewer) && options.withCustomAttributes });
    const body: Record<string, unknown> = {
      ...groupView(group, data, views),
      shared_with_groups: shares.map(sharedWithGroupView),
      ...(canAdminister ? { runners_token: group.runnersToken ?? null } : {}),
      prevent_sharing_groups_outside_hierarchy: false,
      prevent_forking_outside_group: null,
      membership_lock: false,
    };
    if (options.withProjects) {
      const { own, shared } = await projects.ofGroupDetails(viewer, group.id, DETAIL_PROJECTS_LIMIT);
      const projectData = await projects.viewData(viewer, [...own, ...shared]);
      body.projects = own.map((project) => projectView(project, projectData, views));
      body.shared_projects = shared.map((project) => projectView(project, projectData, views));
    }
    res.status(options.status ?? 200).json(body);
  }

  router.get(
    '/api/v4/groups',
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(callerOf(req));
      const query = parseParams(groupListQuery, requestParams(req));
      const page = pageParams(query);
      const order = { by: query.order_by ?? 'name', sort: query.sort ?? 'asc' } as const;
      const result = await groups.list(viewer, groupListFilter(viewer, query), order, { offset: page.offset, limit: page.perPage });
      await sendGroupPage(req, res, viewer, query, page, result);
    }),
  );

  for (const [suffix, descendants] of [
    ['subgroups', false],
    ['descendant_groups', true],
  ] as const) {
    router.get(
      `/api/v4/groups/:id/${suffix}`,
      asyncHandler(async (req, res) => {
        const viewer = await access.viewerOf(callerOf(req));
        const query = parseParams(subgroupListQuery, requestParams(req));
        const page = pageParams(query);
        const result = await groups.subgroups({
          viewer,
          idOrPath: query.id,
          descendants,
          filter: groupListFilter(viewer, query),
          order: { by: query.order_by ?? 'name', sort: query.sort ?? 'asc' },
          page: { offset: page.offset, limit: page.perPage },
        });
        await sendGroupPage(req, res, viewer, query, page, result);
      }),
    );
  }

  router.get(
    '/api/v4/groups/:id/projects',
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(callerOf(req));
      const query = parseParams(groupProjectListQuery, requestParams(req));
      const page = pageParams(query);
      const result = await projects.groupProjects({
        viewer,
        groupIdOrPath: query.id,
        includeSubgroups: query.include_subgroups ?? false,
        withShared: query.with_shared ?? true,
        filter: { ...projectListFilter(viewer, query), ...(query.with_security_reports ? { withSecurityReports: true } : {}) },
        order: projectOrder(query),
        page: { offset: page.offset, limit: page.perPage },
      });
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

  router.get(
    '/api/v4/groups/:id/projects/shared',
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(callerOf(req));
      const query = parseParams(sharedProjectListQuery, requestParams(req));
      const page = pageParams(query);
      const result = await projects.sharedProjects({
        viewer,
        groupIdOrPath: query.id,
        filter: projectListFilter(viewer, query),
        order: projectOrder(query),
        page: { offset: page.offset, limit: page.perPage },
      });
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
    '/api/v4/groups',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const viewer = await access.viewerOf(caller);
      const input = parseParams(createGroupParams, requestParams(req));
      const group = await groups.create(viewer, actorOf(caller), input);
      await sendDetails(res, viewer, group.id, { withProjects: false, withCustomAttributes: false, status: 201 });
    }),
  );

  router.get(
    '/api/v4/groups/:id',
    asyncHandler(async (req, res) => {
      const viewer = await access.viewerOf(callerOf(req));
      const query = parseParams(groupQuery, requestParams(req));
      await sendDetails(res, viewer, query.id, {
        withProjects: query.with_projects ?? true,
        withCustomAttributes: query.with_custom_attributes ?? false,
      });
    }),
  );

  router.put(
    '/api/v4/groups/:id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const viewer = await access.viewerOf(caller);
      const input = parseParams(updateGroupParams, requestParams(req));
      const group = await groups.update(viewer, actorOf(caller), input);
      await sendDetails(res, viewer, group.id, { withProjects: true, withCustomAttributes: false });
    }),
  );

  router.delete(
    '/api/v4/groups/:id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const { id } = parseParams(idOrPathParams, req.params);
      await groups.delete(await access.viewerOf(caller), actorOf(caller), id);
      res.status(202).json({ message: '202 Accepted' });
    }),
  );

  router.post(
    '/api/v4/groups/:id/share',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const viewer = await access.viewerOf(caller);
      const input = parseParams(shareGroupParams, requestParams(req));
      const group = await groups.share(viewer, actorOf(caller), input);
      await sendDetails(res, viewer, group.id, { withProjects: true, withCustomAttributes: false, status: 201 });
    }),
  );

  router.delete(
    '/api/v4/groups/:id/share/:group_id',
    asyncHandler(async (req, res) => {
      const caller = requireUser(callerOf(req));
      const input = parseParams(unshareGroupParams, req.params);
      await groups.unshare(await access.viewerOf(caller), actorOf(caller), input.id, input.group_id);
      res.status(204).end();
    }),
  );

  return router;
}
