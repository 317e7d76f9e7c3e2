import type { ApplicationSettingsSource } from '@platform/admin-client';
import { readModelDatabase, type EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import { enqueueJob, handleJob, type Feature } from '@platform/service';
import type { IssuableHistory } from '../core/issuable-history.ts';
import type { LabelsService } from '../labels/labels-service.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { MergeListener } from '../merge-requests/merge-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { Issue } from './issue.entity.ts';
import { IssueLink } from './issue-link.entity.ts';
import { IssueUserAgentDetail } from './issue-user-agent-detail.entity.ts';
import { PgIssueLinkStore } from './issue-links-store.ts';
import { IssueLinksService } from './issue-links-service.ts';
import { issueLinksRoutes } from './issue-links-routes.ts';
import { issueCreationLimit } from './issue-creation-limit.ts';
import { PgIssueStore } from './issues-store.ts';
import { IssuesService } from './issues-service.ts';
import { issuesRoutes } from './issues-routes.ts';
import type { IssuesRouteDeps } from './issue-route-support.ts';
import { MergeRequestClosingIssues } from './merge-request-closing-issues.ts';
import { PgMergeRequestClosingIssuesStore } from './merge-request-closing-issues-store.ts';
import { closingIssuesBackfillJob } from './merge-request-closing-issues.jobs.ts';
import { projectsSeenBy } from '../core/projects-seen.ts';
import { mayReadIssue } from '../core/issue-access.ts';
import { milestoneItemsRoutes, type MilestoneItemsRouteDeps } from './milestone-items-routes.ts';
import { issueMergeRequestsRoutes } from './issue-merge-requests-routes.ts';
import { IssueMentionsReadModel } from './issue-mentions-read-model.ts';

export const issuesEntities = [Issue, IssueLink, IssueUserAgentDetail];

export interface IssuesFeature extends Feature {
  issues: IssuesService;
  /** What the issue routes are given, for the routes of a milestone's issues. */
  routeDeps: IssuesRouteDeps;
  /** Closes the issues a merged merge request names, as the merging user. */
  closeMergedIssues: MergeListener;
  /** The issues each merge request closes, which merge requests keep as they change. */
  closingIssues: MergeRequestClosingIssues;
}

/**
 * A minimal issue tracker per project, and what merge requests do to it: `closes_issues` lists
 * the issues a merge request's closing references name, and merging it closes them.
 */
export function createIssuesFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  labels: LabelsService;
  milestones: MilestonesService;
  users: UserDirectory;
  mergeRequests: MergeRequestsService;
  repositories: RepositoriesService;
  settings: ApplicationSettingsSource;
  history: IssuableHistory;
}): IssuesFeature {
  const store = new PgIssueStore(deps.em);
  const issues = new IssuesService({ em: deps.em, store, labels: deps.labels, milestones: deps.milestones, history: deps.history });
  const closingIssues = new MergeRequestClosingIssues({
    access: deps.access,
    store: new PgMergeRequestClosingIssuesStore(deps.em),
    issues,
    mergeRequests: deps.mergeRequests,
  });
  // GitLab's `visible_closing_issues_for`: those of the relation the merging user may read, of any project.
  const closeMergedIssues: MergeListener = async ({ mergeRequest, scope, caller }) => {
    const projectOf = projectsSeenBy(deps.access, caller);
    const byProject = new Map<number, number[]>();
    for (const issue of await closingIssues.issues(mergeRequest.id)) {
      const project = issue.projectId === scope.project.id ? scope.project : await projectOf(String(issue.projectId));
      if (!project || !mayReadIssue(project, caller, issue)) continue;
      byProject.set(issue.projectId, [...(byProject.get(issue.projectId) ?? []), issue.iid]);
    }
    for (const [projectId, iids] of byProject) await issues.closeAll(projectId, caller, iids);
  };
  const backfillClosingIssues = async ({ afterId }: { afterId: number }) => {
    const last = await closingIssues.backfill({ afterId, limit: 100, em: deps.em, repositories: deps.repositories });
    if (last !== null) await deps.em.transactional(async (em) => enqueueJob(em, closingIssuesBackfillJob, { afterId: last }));
  };
  const checkCreationRate = issueCreationLimit({
    settings: deps.settings,
    createdSince: (authorId, since) => issues.countCreatedSince(authorId, since),
  });
  const links = new IssueLinksService({ em: deps.em, store: new PgIssueLinkStore(deps.em) });
  const routeDeps = { ...deps, issues, closingIssues, checkCreationRate, mentions: new IssueMentionsReadModel(readModelDatabase(deps.em)) };
  return {
    issues,
    routeDeps,
    closeMergedIssues,
    closingIssues,
    routes: [createRouter(issuesRoutes, routeDeps), createRouter(issueLinksRoutes, { ...routeDeps, links })],
    jobs: [handleJob(closingIssuesBackfillJob, backfillClosingIssues)],
  };
}

/**
 * A milestone's issues and merge requests, and the merge requests that close an issue: built once
 * the merge requests' route dependencies exist.
 */
export function createMilestoneItemsFeature(deps: MilestoneItemsRouteDeps): Feature {
  return { routes: [createRouter(milestoneItemsRoutes, deps), createRouter(issueMergeRequestsRoutes, deps)] };
}
