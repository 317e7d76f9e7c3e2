import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import { approvalsEntities } from './approval.entity.ts';
import { PgApprovalStore } from './approvals-store.ts';
import { ApprovalsService } from './approvals-service.ts';
import { approvalsRoutes } from './approvals-routes.ts';
import { mergeRequestApprovalsRoutes } from './merge-request-approvals-routes.ts';
import type { ApproverDirectory } from './approver-directory.ts';

export { approvalsEntities };

/**
 * Approval settings and rules of projects and merge requests, approvals, and code owner rules:
 * merging waits for the approvals a merge request needs, and a push to its source resets them
 * when the project says so.
 */
export function createApprovalsFeature(deps: {
  em: EntityManager;
  directory: ApproverDirectory;
  access: IdentityAccess;
  repositories: RepositoriesService;
  mergeRequests: MergeRequestsService;
  protectedBranches: ProtectedBranchesService;
  users: UserDirectory;
}): Feature {
  const { directory } = deps;
  const approvals = new ApprovalsService({
    store: new PgApprovalStore(deps.em),
    directory,
    protectedBranches: deps.protectedBranches,
    mergeRequests: deps.mergeRequests,
    repositories: deps.repositories,
  });
  deps.mergeRequests.onNewVersion((version) => approvals.onNewVersion(version));
  deps.repositories.onRefsChanged(({ projectId, changes }) => approvals.onRefsChanged(projectId, changes));
  deps.mergeRequests.requireApprovals((mergeRequest) => approvals.isApproved(mergeRequest));
  deps.mergeRequests.overrideApproversWhen((projectId) => approvals.mayOverrideApprovers(projectId));
  const routeDeps = { ...deps, approvals };
  return { routes: [createRouter(approvalsRoutes, routeDeps), createRouter(mergeRequestApprovalsRoutes, routeDeps)] };
}
