import { z } from 'zod';
import { params, routesOf } from '@platform/http';
import { DEVELOPER } from '../repositories/repository-access.ts';
import { MAINTAINER_ACCESS } from '../protected-branches/branch-protection.ts';
import { approvalSettingsView, idsOfRules, projectRuleView } from './approval-views.ts';
import { projectWith, viewContext, type ApprovalsRouteDeps } from './approval-route-helpers.ts';
import type { ApprovalRule } from './approval.entity.ts';

const route = routesOf<ApprovalsRouteDeps>('review');

const ruleId = () => params.integer().pipe(z.number().int().positive());
const approvalsRequired = () => params.integer().pipe(z.number().int().min(0).max(100));
const idList = () => params.integerList(100);
const ruleShape = {
  user_ids: idList().optional(),
  group_ids: idList().optional(),
  protected_branch_ids: idList().optional(),
  rule_type: z.enum(['regular', 'any_approver']).optional(),
};
const ruleName = () => z.string().min(1).max(255);

/** Project rules as GitLab shows them: users, groups, eligible approvers and protected branches resolved. */
async function rulesView(deps: ApprovalsRouteDeps, caller: Parameters<typeof viewContext>[1], projectId: number, rules: ApprovalRule[]) {
  const shown = await deps.approvals.resolve(rules, new Set());
  const context = await viewContext(deps, caller, { projectId, ...idsOfRules(shown) });
  return shown.map((rule) => projectRuleView(rule, context));
}

async function settingsView(deps: ApprovalsRouteDeps, caller: Parameters<typeof viewContext>[1], projectId: number) {
  const settings = await deps.approvals.settings(projectId);
  const context = await viewContext(deps, caller, { projectId, userIds: settings.approverIds, groupIds: settings.approverGroupIds });
  return approvalSettingsView(settings, context);
}

export const approvalsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/approvals',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath() }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, DEVELOPER);
      return settingsView(deps, caller, project.id);
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/approvals',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      id: params.idOrPath(),
      approvals_before_merge: approvalsRequired().optional(),
      reset_approvals_on_push: params.boolean().optional(),
      disable_overriding_approvers_per_merge_request: params.boolean().optional(),
      merge_requests_author_approval: params.boolean().optional(),
      merge_requests_disable_committers_approval: params.boolean().optional(),
      require_password_to_approve: params.boolean().optional(),
      require_reauthentication_to_approve: params.boolean().optional(),
      selective_code_owner_removals: params.boolean().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, MAINTAINER_ACCESS);
      await deps.approvals.updateSettings(project.id, {
        approvalsBeforeMerge: input.approvals_before_merge,
        resetApprovalsOnPush: input.reset_approvals_on_push,
        disableOverridingApproversPerMergeRequest: input.disable_overriding_approvers_per_merge_request,
        mergeRequestsAuthorApproval: input.merge_requests_author_approval,
        mergeRequestsDisableCommittersApproval: input.merge_requests_disable_committers_approval,
        requirePasswordToApprove: input.require_password_to_approve ?? input.require_reauthentication_to_approve,
      });
      return settingsView(deps, caller, project.id);
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/approvers',
    access: 'user',
    scope: 'api',
    input: z.object({ id: params.idOrPath(), approver_ids: params.integerList(100), approver_group_ids: params.integerList(100) }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, MAINTAINER_ACCESS);
      await deps.approvals.setProjectApprovers(project.id, { userIds: input.approver_ids, groupIds: input.approver_group_ids });
      return settingsView(deps, caller, project.id);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/approval_rules',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath() }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, DEVELOPER);
      return rulesView(deps, caller, project.id, await deps.approvals.projectRules(project.id));
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/approval_rules/:approval_rule_id',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), approval_rule_id: ruleId() }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, DEVELOPER);
      const [view] = await rulesView(deps, caller, project.id, [await deps.approvals.projectRule(project.id, input.approval_rule_id)]);
      return view;
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/approval_rules',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ id: params.idOrPath(), name: ruleName(), approvals_required: approvalsRequired(), ...ruleShape }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, MAINTAINER_ACCESS);
      const rule = await deps.approvals.createProjectRule(project, caller, {
        name: input.name,
        approvalsRequired: input.approvals_required,
        ruleType: input.rule_type,
        userIds: input.user_ids,
        groupIds: input.group_ids,
        protectedBranchIds: input.protected_branch_ids,
      });
      const [view] = await rulesView(deps, caller, project.id, [rule]);
      return view;
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/approval_rules/:approval_rule_id',
    access: 'user',
    scope: 'api',
    input: z.object({
      id: params.idOrPath(),
      approval_rule_id: ruleId(),
      name: ruleName().optional(),
      approvals_required: approvalsRequired().optional(),
      ...ruleShape,
    }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, MAINTAINER_ACCESS);
      const rule = await deps.approvals.updateProjectRule(project, caller, input.approval_rule_id, {
        name: input.name,
        approvalsRequired: input.approvals_required,
        userIds: input.user_ids,
        groupIds: input.group_ids,
        protectedBranchIds: input.protected_branch_ids,
      });
      const [view] = await rulesView(deps, caller, project.id, [rule]);
      return view;
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/approval_rules/:approval_rule_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ id: params.idOrPath(), approval_rule_id: ruleId() }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, MAINTAINER_ACCESS);
      await deps.approvals.deleteProjectRule(project, caller, input.approval_rule_id);
    },
  }),
];
