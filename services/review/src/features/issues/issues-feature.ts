import type { ApplicationSettingsSource } from '@platform/admin-client';
import { readModelDatabase, type EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
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
import { closingIssueIids } from './merge-request-closing.ts';
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
  const closeMergedIssues: MergeListener = async ({ mergeRequest, scope, caller }) => {
    const iids = await closingIssueIids({
      mergeRequest,
      project: scope.project,
      repository: scope.repository,
      mergeRequests: deps.mergeRequests,
    });
    await issues.closeAll(scope.project.id, caller, iids);
  };
  const checkCreationRate = issueCreationLimit({
    settings: deps.settings,
    createdSince: (authorId, since) => issues.countCreatedSince(authorId, since),
  });
  const links = new IssueLinksService({ em: deps.em, store: new PgIssueLinkStore(deps.em) });
  const routeDeps = { ...deps, issues, checkCreationRate, mentions: new IssueMentionsReadModel(readModelDatabase(deps.em)) };
  return {
    issues,
    routeDeps,
    closeMergedIssues,
    routes: [createRouter(issuesRoutes, routeDeps), createRouter(issueLinksRoutes, { ...routeDeps, links })],
  };
}

/**
 * A milestone's issues and merge requests, and the merge requests that close an issue: built once
 * the merge requests' route dependencies exist.
 */
export function createMilestoneItemsFeature(deps: MilestoneItemsRouteDeps): Feature {
  return { routes: [createRouter(milestoneItemsRoutes, deps), createRouter(issueMergeRequestsRoutes, deps)] };
}
