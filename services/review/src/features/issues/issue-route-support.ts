import type { MergeRequestClosingIssues } from './merge-request-closing-issues.ts';
import type { AuthenticatedCaller, Caller } from '@platform/auth';
import { ForbiddenError, NotFoundError } from '@platform/errors';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import type { LabelsService } from '../labels/labels-service.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { issueVisibleTo, mayManageIssues, planningProject } from '../core/issue-access.ts';
import { issueUserIds, issueView } from './issue-views.ts';
import type { Issue } from './issue.entity.ts';
import type { IssueMentionsReadModel } from './issue-mentions-read-model.ts';
import type { IssuesService } from './issues-service.ts';

export interface IssuesRouteDeps {
  access: IdentityAccess;
  issues: IssuesService;
  labels: LabelsService;
  milestones: MilestonesService;
  users: UserDirectory;
  mergeRequests: MergeRequestsService;
  repositories: RepositoriesService;
  /** Refuses (429) an issue creation over the `issues_create_limit` setting. */
  checkCreationRate: (caller: AuthenticatedCaller) => Promise<void>;
  /** Where issues and merge requests mention each other. */
  mentions: IssueMentionsReadModel;
  /** Which issues each merge request closes. */
  closingIssues: MergeRequestClosingIssues;
}

/** Who sees confidential issues: reporters and above all of them, others those they wrote or are assigned. */
export function confidentialViewer(project: ProjectAccess, caller: Caller): number | null | undefined {
  if (mayManageIssues(project)) return undefined;
  return caller.kind === 'user' ? caller.userId : null;
}

export async function viewsOf(
  deps: IssuesRouteDeps,
  options: { project: ProjectAccess; caller: Caller; baseUrl: string; withLabelsDetails?: boolean },
  issues: Issue[],
) {
  const { project } = options;
  const [users, milestones, labels] = await Promise.all([
    deps.users.users(issueUserIds(issues), options.caller),
    deps.milestones.byIds(
      project.id,
      issues.flatMap((issue) => (issue.milestoneId ? [issue.milestoneId] : [])),
    ),
    options.withLabelsDetails
      ? deps.labels.visibleByTitles(project.id, [...new Set(issues.flatMap((issue) => issue.labels))])
      : Promise.resolve(undefined),
  ]);
  const labelDetails = labels && new Map(labels.map((label) => [label.title, label]));
  return issues.map((issue) => issueView(issue, { project, baseUrl: options.baseUrl, users, milestones, labelDetails }));
}

/** The issue when the caller may see it: a confidential one stays hidden (404) from those it does not concern. */
export async function visibleIssue(deps: IssuesRouteDeps, project: ProjectAccess, caller: Caller, iid: number): Promise<Issue> {
  const issue = await deps.issues.get(project.id, iid);
  if (!issueVisibleTo(project, caller, issue)) throw new NotFoundError('Issue');
  return issue;
}

/**
 * Views of issues of any projects, by issue id, for those the caller may see: each issue's project
 * is asked for once, and issues of projects or confidential issues hidden from the caller are left out.
 */
export async function viewsAcrossProjects(
  deps: IssuesRouteDeps,
  options: { caller: Caller; baseUrl: string },
  issues: Issue[],
): Promise<Map<number, ReturnType<typeof issueView>>> {
  const views = new Map<number, ReturnType<typeof issueView>>();
  for (const projectId of new Set(issues.map((issue) => issue.projectId))) {
    const project = await planningProject({ access: deps.access, caller: options.caller, idOrPath: projectId }).catch((error: unknown) => {
      if (error instanceof NotFoundError || error instanceof ForbiddenError) return null;
      throw error;
    });
    if (!project) continue;
    const visible = issues.filter((issue) => issue.projectId === projectId && issueVisibleTo(project, options.caller, issue));
    const projectViews = await viewsOf(deps, { project, caller: options.caller, baseUrl: options.baseUrl }, visible);
    visible.forEach((issue, index) => views.set(issue.id, projectViews[index] as ReturnType<typeof issueView>));
  }
  return views;
}
