import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { params } from '@platform/http';
import { requireProjectAccess, type IdentityAccess, type ProjectAccess } from '@platform/identity-client';
import { codeReaders } from '../repositories/repository-access.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import type { UpdateMergeRequestService } from '../merge-requests/update-merge-request-service.ts';
import type { ApprovalsService, RuleInput, ShownRule } from './approvals-service.ts';
import { idsOfRules, type ApprovalViewContext } from './approval-views.ts';
import type { ApprovalRule } from './approval.entity.ts';
import type { ApproverDirectory } from './approver-directory.ts';

export interface ApprovalsRouteDeps {
  access: IdentityAccess;
  approvals: ApprovalsService;
  mergeRequests: MergeRequestsService;
  updates: UpdateMergeRequestService;
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
  return requireProjectAccess({ access: deps.access, caller, idOrPath, ...codeReaders(minimumLevel) });
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

/** The bounds of approval rule parameters. */
export const ruleParams = {
  id: () => params.integer().pipe(z.number().int().positive()),
  name: () => z.string().min(1).max(255),
  approvalsRequired: () => params.integer().pipe(z.number().int().min(0).max(100)),
  ids: () => params.integerList(100),
};

/** A rule's parameters as the domain names them; those not given stay undefined. */
export function ruleInputOf<
  Input extends {
    name?: string | undefined;
    approvals_required?: number | undefined;
    rule_type?: RuleInput['ruleType'];
    user_ids?: number[] | undefined;
    group_ids?: number[] | undefined;
    protected_branch_ids?: number[] | undefined;
  },
>(input: Input): { name: Input['name']; approvalsRequired: Input['approvals_required'] } & Omit<RuleInput, 'name' | 'approvalsRequired'> {
  return {
    name: input.name,
    approvalsRequired: input.approvals_required,
    ruleType: input.rule_type,
    userIds: input.user_ids,
    groupIds: input.group_ids,
    protectedBranchIds: input.protected_branch_ids,
  };
}

/** Rules as GitLab shows them (`view` tells project rules from merge request rules): users, groups and eligible approvers resolved. */
export async function rulesView<View>(
  deps: ApprovalsRouteDeps,
  caller: Caller,
  options: { projectId: number; rules: ApprovalRule[]; view: (shown: ShownRule, context: ApprovalViewContext) => View },
): Promise<View[]> {
  const shown = await deps.approvals.resolve(options.rules, new Set());
  const context = await viewContext(deps, caller, { projectId: options.projectId, ...idsOfRules(shown) });
  return shown.map((rule) => options.view(rule, context));
}

/** One rule as GitLab shows it. */
export async function ruleView<View>(
  deps: ApprovalsRouteDeps,
  caller: Caller,
  options: { projectId: number; rule: ApprovalRule; view: (shown: ShownRule, context: ApprovalViewContext) => View },
): Promise<View | undefined> {
  const [shown] = await rulesView(deps, caller, { projectId: options.projectId, rules: [options.rule], view: options.view });
  return shown;
}
