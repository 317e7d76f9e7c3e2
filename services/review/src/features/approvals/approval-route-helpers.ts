import type { Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import { HttpStatusError } from '@platform/http';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import { mayReadCode } from '../repositories/repository-access.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { MergeRequestRefusal, type MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { UserDirectory } from '../merge-requests/user-directory.ts';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import type { ApprovalsService } from './approvals-service.ts';
import type { ApprovalViewContext } from './approval-views.ts';
import type { ApproverDirectory } from './approver-directory.ts';

export interface ApprovalsRouteDeps {
  access: IdentityAccess;
  approvals: ApprovalsService;
  mergeRequests: MergeRequestsService;
  repositories: RepositoriesService;
  protectedBranches: ProtectedBranchesService;
  users: UserDirectory;
  directory: ApproverDirectory;
}

/**
 * The project behind `:id` when the caller may read its code and has at least `minimumLevel`
 * there: 404 when it is invisible, 403 with too little access (before anything else is looked up).
 */
export async function projectWith(
  deps: ApprovalsRouteDeps,
  caller: Caller,
  idOrPath: string | number,
  minimumLevel: number,
): Promise<ProjectAccess> {
  const project = await deps.access.project({ idOrPath: String(idOrPath), caller });
  if (!mayReadCode(project)) throw new ForbiddenError();
  if (!project.isAdmin && project.accessLevel < minimumLevel) throw new ForbiddenError();
  return project;
}

/** The users and groups a view names, and the project's protected branches. */
export async function viewContext(
  deps: ApprovalsRouteDeps,
  caller: Caller,
  options: { projectId: number; userIds: number[]; groupIds: number[] },
): Promise<ApprovalViewContext> {
  const [users, groups, protections] = await Promise.all([
    deps.users.users(options.userIds, caller),
    deps.directory.groups(options.groupIds),
    deps.protectedBranches.list(options.projectId),
  ]);
  return { users, groups, protections };
}

/** GitLab's own statuses and bodies for refusals the domain names (409 for a stale `sha`). */
export async function answered<Result>(work: Promise<Result>): Promise<Result> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof MergeRequestRefusal) throw new HttpStatusError(error.status, error.message, error.body);
    throw error;
  }
}
