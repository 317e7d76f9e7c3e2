import { z } from 'zod';
import { pageParams, pageShape, params, routesOf } from '@platform/http';
import { ACCESS_LEVEL } from '@platform/identity-client';
import { commitView } from '../commits/commit-views.ts';
import { acrossProjectsPage, filterOf, listPage, listShape } from './merge-request-finder.ts';
import { diffView, versionDetailView, versionView } from './merge-request-views.ts';
import {
  detail,
  iidParam,
  latestContents,
  pageOfList,
  perMergeRequest,
  readableProject,
  scopeOf,
  type MergeRequestsRouteDeps,
} from './merge-request-route-support.ts';
import { rebaseInProgress } from './merge-requests-service.ts';

const route = routesOf<MergeRequestsRouteDeps>('review');

/** Merge requests read (lists, one, its diffs, commits and versions) and deleted. */
export const mergeRequestsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), iids: params.integerList(100).optional(), ...listShape }),
    handle: async ({ caller, input, deps, page }) => {
      const project = await readableProject(deps, caller, input.id);
      const filter = await filterOf(deps, caller, input, 'all');
      filter.projectIds = [project.id];
      if (input.iids) filter.iids = filter.iids ? filter.iids.filter((iid) => input.iids?.includes(iid)) : input.iids;
      const window = pageParams(input);
      const result = await listPage({
        deps,
        caller,
        input,
        filter,
        window,
        projectOf: async () => project,
        fromOwnProject: true,
        acrossProjects: false,
      });
      if (input.with_merge_status_recheck) {
        const { repository } = await scopeOf(deps, caller, project.id);
        const { items } = await deps.mergeRequests.list({
          filter,
          order: { by: input.order_by, direction: input.sort },
          offset: window.offset,
          limit: window.perPage,
        });
        deps.mergeability.recheckLater(repository, items);
      }
      return page(window, result);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/merge_requests',
    access: 'user',
    scope: 'read_api',
    input: z.object(listShape),
    handle: async ({ caller, input, deps, page }) => {
      const filter = await filterOf(deps, caller, input, 'created_by_me');
      return page(pageParams(input), await acrossProjectsPage({ deps, caller, input, filter }));
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/groups/:id/merge_requests',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), non_archived: params.boolean().default(true), ...listShape }),
    handle: async ({ caller, input, deps, page }) => {
      const groupId = await deps.access.require({ resource: 'group', idOrPath: String(input.id), caller, minimumLevel: 0 });
      const filter = await filterOf(deps, caller, input, 'all');
      filter.groupId = groupId;
      return page(pageParams(input), await acrossProjectsPage({ deps, caller, input, filter }));
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid',
    access: 'user',
    scope: 'read_api',
    input: z.object({
      ...perMergeRequest,
      include_diverged_commits_count: params.boolean().default(false),
      include_rebase_in_progress: params.boolean().default(false),
    }),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.getChecked(scope, input.merge_request_iid);
      const view = await detail(deps, caller, scope, mergeRequest, { divergedCommitsCount: input.include_diverged_commits_count });
      return input.include_rebase_in_progress ? { ...view, rebase_in_progress: rebaseInProgress(mergeRequest) } : view;
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id, ACCESS_LEVEL.OWNER);
      await deps.mergeRequests.delete(scope.project.id, input.merge_request_iid);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/changes',
    access: 'user',
    scope: 'read_api',
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.getChecked(scope, input.merge_request_iid);
      const view = await detail(deps, caller, scope, mergeRequest);
      const { diffs } = await latestContents(deps, scope, mergeRequest);
      return { ...view, changes: diffs.map(diffView), overflow: false };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/diffs',
    access: 'user',
    scope: 'read_api',
    input: z.object({ ...perMergeRequest, unidiff: params.boolean().default(false), ...pageShape }),
    handle: async ({ caller, input, deps, page }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.get(scope.project.id, input.merge_request_iid);
      const { diffs } = await latestContents(deps, scope, mergeRequest);
      const { window, ...listed } = pageOfList(input, diffs, diffView);
      return page(window, listed);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/commits',
    access: 'user',
    scope: 'read_api',
    input: z.object({ ...perMergeRequest, ...pageShape }),
    handle: async ({ caller, input, deps, page }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.get(scope.project.id, input.merge_request_iid);
      const { commits } = await latestContents(deps, scope, mergeRequest);
      const { window, ...listed } = pageOfList(input, commits, (commit) => commitView(commit, scope.project));
      return page(window, listed);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/versions',
    access: 'user',
    scope: 'read_api',
    input: z.object({ ...perMergeRequest, ...pageShape }),
    handle: async ({ caller, input, deps, page }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.get(scope.project.id, input.merge_request_iid);
      const { window, ...listed } = pageOfList(input, await deps.mergeRequests.versions(mergeRequest), versionView);
      return page(window, listed);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/versions/:version_id',
    access: 'user',
    scope: 'read_api',
    input: z.object({ ...perMergeRequest, version_id: iidParam() }),
    handle: async ({ caller, input, deps }) => {
      const scope = await scopeOf(deps, caller, input.id);
      const mergeRequest = await deps.mergeRequests.get(scope.project.id, input.merge_request_iid);
      const version = await deps.mergeRequests.version(mergeRequest, input.version_id);
      return versionDetailView(version, await deps.mergeRequests.versionContents(scope.repository, version));
    },
  }),
];
