import { z } from 'zod';
import { params, routesOf } from '@platform/http';
import { planningProject } from '../core/issue-access.ts';
import { listPage, listShape } from '../merge-requests/merge-request-finder.ts';
import type { ProjectAccess } from '@platform/identity-client';
import { mayReadCode } from '../repositories/repository-access.ts';
import { referencedIssueIids, referencedMergeRequestIids } from './closing-references.ts';
import type { Issue } from './issue.entity.ts';
import { visibleIssue } from './issue-route-support.ts';
import { closingIssueIids } from './merge-request-closing.ts';
import type { MilestoneItemsRouteDeps } from './milestone-items-routes.ts';

const route = routesOf<MilestoneItemsRouteDeps>('review');

/** Merge requests are read for closing references this many at a time. */
const BATCH = 100;

/** The iids of the project's merge requests whose closing references name the issue (GitLab's merge_requests_closing_issues). */
async function closingMergeRequestIids(deps: MilestoneItemsRouteDeps, project: ProjectAccess, issueIid: number): Promise<number[]> {
  const repository = await deps.repositories.ensure(project.id, { forkedFromProjectId: project.forkedFromProjectId });
  const iids: number[] = [];
  for (let offset = 0; ; offset += BATCH) {
    const { items } = await deps.mergeRequests.list({
      filter: { projectIds: [project.id] },
      order: { by: 'created_at', direction: 'asc' },
      offset,
      limit: BATCH,
    });
    for (const mergeRequest of items) {
      const closed = await closingIssueIids({ mergeRequest, project, repository, mergeRequests: deps.mergeRequests });
      if (closed.includes(issueIid)) iids.push(mergeRequest.iid);
    }
    if (items.length < BATCH) return iids;
  }
}

/**
 * The iids of the project's merge requests related to the issue (GitLab's ReferencedMergeRequestsService):
 * those whose title, description or comments mention it (closing ones among them), and those the
 * issue's title, description or comments mention.
 */
async function relatedMergeRequestIids(deps: MilestoneItemsRouteDeps, project: ProjectAccess, issue: Issue): Promise<number[]> {
  const iids = new Set<number>();
  for (const { iid, text } of await deps.mentions.mergeRequestTextsNaming({ projectId: project.id, issueIid: issue.iid })) {
    if (referencedIssueIids(text, project).includes(issue.iid)) iids.add(iid);
  }
  const issueTexts = [issue.title, issue.description, ...(await deps.mentions.issueCommentBodies(issue.id))];
  for (const text of issueTexts) for (const iid of referencedMergeRequestIids(text, project)) iids.add(iid);
  return [...iids];
}

/** The merge requests an issue is linked to. */
export const issueMergeRequestsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/issues/:issue_iid/closed_by',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), issue_iid: params.integer().pipe(z.number().int().positive()) }),
    handle: async ({ caller, input, deps, window }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const issue = await visibleIssue(deps, project, caller, input.issue_iid);
      // Merge requests the caller may not read are not listed (a guest of a private project sees none).
      if (!mayReadCode(project)) return { items: [], total: 0 };
      const iids = await closingMergeRequestIids(deps, project, issue.iid);
      if (iids.length === 0) return { items: [], total: 0 };
      return listPage({
        deps,
        caller,
        input: z.object(listShape).parse({ state: 'all' }),
        filter: { projectIds: [project.id], iids },
        window: { page: Math.floor(window.offset / window.limit) + 1, perPage: window.limit, offset: window.offset },
        projectOf: async () => project,
        fromOwnProject: true,
        acrossProjects: false,
      });
    },
  }),
  route.list({
    path: '/api/v4/projects/:id/issues/:issue_iid/related_merge_requests',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), issue_iid: params.integer().pipe(z.number().int().positive()) }),
    handle: async ({ caller, input, deps, window }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const issue = await visibleIssue(deps, project, caller, input.issue_iid);
      if (!mayReadCode(project)) return { items: [], total: 0 };
      const iids = await relatedMergeRequestIids(deps, project, issue);
      if (iids.length === 0) return { items: [], total: 0 };
      return listPage({
        deps,
        caller,
        // By iid, as GitLab sorts them: iids follow creation.
        input: z.object(listShape).parse({ state: 'all', order_by: 'created_at', sort: 'asc' }),
        filter: { projectIds: [project.id], iids },
        window: { page: Math.floor(window.offset / window.limit) + 1, perPage: window.limit, offset: window.offset },
        projectOf: async () => project,
        fromOwnProject: true,
        acrossProjects: false,
      });
    },
  }),
];
