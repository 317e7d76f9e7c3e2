import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import type { UpdateMergeRequestService } from '../merge-requests/update-merge-request-service.ts';
import { approvalsEntities } from './approval.entity.ts';
import { PgApprovalStore } from './approvals-store.ts';
import { ApprovalsService } from './approvals-service.ts';
import { approvalsRoutes } from './approvals-routes.ts';
import { mergeRequestApprovalsRoutes } from './merge-request-approvals-routes.ts';
import type { ApproverDirectory } from './approver-directory.ts';

export { approvalsEntities };

/**
 * Approval settings and rules of projects and merge requests, approvals, and code owner rules:
 * built before merge requests' operations, which wait for the approvals a merge request needs and
 * tell it of new diff versions.
 */
export function createApprovals(deps: {
  em: EntityManager;
  directory: ApproverDirectory;
  repositories: RepositoriesService;
  mergeRequests: MergeRequestsService;
  protectedBranches: ProtectedBranchesService;
}): ApprovalsService {
  return new ApprovalsService({
    em: deps.em,
    store: new PgApprovalStore(deps.em),
    directory: deps.directory,
    protectedBranches: deps.protectedBranches,
    mergeRequests: deps.mergeRequests,
    repositories: deps.repositories,
  });
}

/** The approval routes; a push to a merge request's target re-reads its code owner rules. */
export function createApprovalsFeature(deps: {
  approvals: ApprovalsService;
  directory: ApproverDirectory;
  access: IdentityAccess;
  repositories: RepositoriesService;
  mergeRequests: MergeRequestsService;
  updates: UpdateMergeRequestService;
  protectedBranches: ProtectedBranchesService;
  users: UserDirectory;
}): Feature {
  const { approvals } = deps;
  deps.repositories.onRefsChanged(({ projectId, changes }) => approvals.onRefsChanged(projectId, changes));
  return { routes: [createRouter(approvalsRoutes, deps), createRouter(mergeRequestApprovalsRoutes, deps)] };
}
