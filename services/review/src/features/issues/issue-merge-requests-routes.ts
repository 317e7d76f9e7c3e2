import { z } from 'zod';
import { params, routesOf } from '@platform/http';
import { planningProject } from '../core/issue-access.ts';
import { listPage, listShape } from '../merge-requests/merge-request-finder.ts';
import type { ProjectAccess } from '@platform/identity-client';
import { mayReadCode } from '../repositories/repository-access.ts';
import { referencedIssueIids, referencedMergeRequestIids } from './closing-references.ts';
import type { Issue } from './issue.entity.ts';
import { visibleIssue } from './issue-route-support.ts';
import { projectsSeenBy } from '../core/projects-seen.ts';
import type { MilestoneItemsRouteDeps } from './milestone-items-routes.ts';

const route = routesOf<MilestoneItemsRouteDeps>('review');

/**
 * The ids of the merge requests related to the issue that the caller may read (GitLab's
 * ReferencedMergeRequestsService): those of any project that mentioned it (its cross-reference
 * notes), those of its project whose title, description or comments mention it (closing ones among
 * them), and those the issue's title, description or comments mention.
 */
async function relatedMergeRequestIds(options: {
  deps: MilestoneItemsRouteDeps;
  project: ProjectAccess;
  issue: Issue;
  projectOf: (projectId: number) => Promise<ProjectAccess | undefined>;
}): Promise<number[]> {
  const { deps, project, issue } = options;
  const ids = new Set<number>();
  // Its own project's only for who may read its code (a guest of a private project sees none).
  if (mayReadCode(project)) {
    for (const { id, text } of await deps.mentions.mergeRequestTextsNaming({ projectId: project.id, issueIid: issue.iid })) {
      if (referencedIssueIids(text, project).includes(issue.iid)) ids.add(id);
    }
    const issueTexts = [issue.title, issue.description, ...(await deps.mentions.issueCommentBodies(issue.id))];
    const iids = [...new Set(issueTexts.flatMap((text) => referencedMergeRequestIids(text, project)))];
    for (const id of await deps.mentions.mergeRequestIds({ projectId: project.id, iids })) ids.add(id);
  }
  for (const mentioner of await deps.mentions.mergeRequestsMentioning(issue.id)) {
    const mentionerProject = await options.projectOf(mentioner.projectId);
    if (mentionerProject && mayReadCode(mentionerProject)) ids.add(mentioner.id);
  }
  return [...ids];
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
      // The issue's entries of merge_requests_closing_issues (by its index), of its project's merge requests.
      const iids = await deps.closingIssues.mergeRequestIids({ projectId: project.id, issueId: issue.id });
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
      const seen = projectsSeenBy(deps.access, caller);
      const projectOf = async (projectId: number) => (projectId === project.id ? project : seen(String(projectId)));
      const ids = await relatedMergeRequestIds({ deps, project, issue, projectOf });
      if (ids.length === 0) return { items: [], total: 0 };
      return listPage({
        deps,
        caller,
        // In creation order, as GitLab sorts them.
        input: z.object(listShape).parse({ state: 'all', order_by: 'created_at', sort: 'asc' }),
        filter: { ids },
        window: { page: Math.floor(window.offset / window.limit) + 1, perPage: window.limit, offset: window.offset },
        projectOf,
        fromOwnProject: (projectId) => projectId === project.id,
        acrossProjects: false,
      });
    },
  }),
];
