import { z } from 'zod';
import { baseUrlOf, params, routesOf } from '@platform/http';
import { planningProject } from '../core/issue-access.ts';
import { acrossProjectsPage, listPage, listShape } from '../merge-requests/merge-request-finder.ts';
import { readableProject, type MergeRequestsRouteDeps } from '../merge-requests/merge-request-route-support.ts';
import { confidentialViewer, viewsAcrossProjects, viewsOf, type IssuesRouteDeps } from './issue-route-support.ts';
import type { IssueFilter } from './issues-store.ts';

export type MilestoneItemsRouteDeps = IssuesRouteDeps & MergeRequestsRouteDeps;

const route = routesOf<MilestoneItemsRouteDeps>('review');

const perMilestone = { id: params.idOrPath(), milestone_id: params.integer().pipe(z.number().int().positive()) };

/** What a project's or a group's milestone carries: its issues and merge requests, as the caller may see them (GitLab's milestone_responses). */
export const milestoneItemsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/milestones/:milestone_id/issues',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object(perMilestone),
    handle: async ({ caller, input, deps, window, request }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const milestone = await deps.milestones.get(project.id, input.milestone_id);
      const filter: IssueFilter = { projectId: project.id, milestone: { kind: 'is', value: milestone.id } };
      const viewer = confidentialViewer(project, caller);
      if (viewer !== undefined) filter.confidentialVisibleTo = viewer;
      const { items, total } = await deps.issues.list({ filter, order: { by: 'created_at', direction: 'desc' }, ...window });
      return { items: await viewsOf(deps, { project, caller, baseUrl: baseUrlOf(request) }, items), total };
    },
  }),
  route.list({
    path: '/api/v4/projects/:id/milestones/:milestone_id/merge_requests',
    access: 'user',
    scope: 'read_api',
    input: z.object(perMilestone),
    handle: async ({ caller, input, deps, window }) => {
      await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const project = await readableProject(deps, caller, input.id);
      const milestone = await deps.milestones.get(project.id, input.milestone_id);
      return listPage({
        deps,
        caller,
        input: z.object(listShape).parse({ state: 'all' }),
        filter: { projectIds: [project.id], milestone: { kind: 'is', value: [milestone.id] } },
        window: { page: Math.floor(window.offset / window.limit) + 1, perPage: window.limit, offset: window.offset },
        projectOf: async () => project,
        fromOwnProject: true,
        acrossProjects: false,
      });
    },
  }),
  route.list({
    path: '/api/v4/groups/:id/milestones/:milestone_id/issues',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object(perMilestone),
    handle: async ({ caller, input, deps, window, request }) => {
      const groupId = await deps.access.require({ resource: 'group', idOrPath: String(input.id), caller, minimumLevel: 0 });
      const milestone = await deps.milestones.getInGroup(groupId, input.milestone_id);
      // The group's projects' issues the caller sees, each project asked for once.
      const issues = await deps.issues.byMilestone(milestone.id);
      const views = await viewsAcrossProjects(deps, { caller, baseUrl: baseUrlOf(request) }, issues);
      const visible = issues.flatMap((issue) => views.get(issue.id) ?? []);
      return { items: visible.slice(window.offset, window.offset + window.limit), total: visible.length };
    },
  }),
  route.list({
    path: '/api/v4/groups/:id/milestones/:milestone_id/merge_requests',
    access: 'user',
    scope: 'read_api',
    input: z.object(perMilestone),
    handle: async ({ caller, input, deps }) => {
      const groupId = await deps.access.require({ resource: 'group', idOrPath: String(input.id), caller, minimumLevel: 0 });
      const milestone = await deps.milestones.getInGroup(groupId, input.milestone_id);
      // The group's and its subgroups' projects' merge requests the caller may read.
      return acrossProjectsPage({
        deps,
        caller,
        input: z.object(listShape).parse({ state: 'all', page: input.page, per_page: input.per_page }),
        filter: { groupId, milestone: { kind: 'is', value: [milestone.id] } },
      });
    },
  }),
];
