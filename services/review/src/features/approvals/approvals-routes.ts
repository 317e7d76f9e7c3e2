import { z } from 'zod';
import { params, routesOf } from '@platform/http';
import { ACCESS_LEVEL } from '@platform/identity-client';
import { approvalSettingsView, projectRuleView } from './approval-views.ts';
import {
  projectWith,
  ruleInputOf,
  ruleParams,
  rulesView,
  ruleView,
  viewContext,
  type ApprovalsRouteDeps,
} from './approval-route-helpers.ts';

const route = routesOf<ApprovalsRouteDeps>('review');

const ruleShape = {
  user_ids: ruleParams.ids().optional(),
  group_ids: ruleParams.ids().optional(),
  protected_branch_ids: ruleParams.ids().optional(),
  rule_type: z.enum(['regular', 'any_approver']).optional(),
};

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
      const project = await projectWith(deps, caller, input.id, ACCESS_LEVEL.DEVELOPER);
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
      approvals_before_merge: ruleParams.approvalsRequired().optional(),
      reset_approvals_on_push: params.boolean().optional(),
      disable_overriding_approvers_per_merge_request: params.boolean().optional(),
      merge_requests_author_approval: params.boolean().optional(),
      merge_requests_disable_committers_approval: params.boolean().optional(),
      require_password_to_approve: params.boolean().optional(),
      require_reauthentication_to_approve: params.boolean().optional(),
      selective_code_owner_removals: params.boolean().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, ACCESS_LEVEL.MAINTAINER);
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
      const project = await projectWith(deps, caller, input.id, ACCESS_LEVEL.MAINTAINER);
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
      const project = await projectWith(deps, caller, input.id, ACCESS_LEVEL.DEVELOPER);
      return rulesView(deps, caller, {
        projectId: project.id,
        rules: await deps.approvals.projectRules(project.id),
        view: projectRuleView,
      });
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/approval_rules/:approval_rule_id',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), approval_rule_id: ruleParams.id() }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, ACCESS_LEVEL.DEVELOPER);
      const rule = await deps.approvals.projectRule(project.id, input.approval_rule_id);
      return ruleView(deps, caller, { projectId: project.id, rule, view: projectRuleView });
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/approval_rules',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ id: params.idOrPath(), name: ruleParams.name(), approvals_required: ruleParams.approvalsRequired(), ...ruleShape }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, ACCESS_LEVEL.MAINTAINER);
      const rule = await deps.approvals.createProjectRule(project, caller, ruleInputOf(input));
      return ruleView(deps, caller, { projectId: project.id, rule, view: projectRuleView });
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/approval_rules/:approval_rule_id',
    access: 'user',
    scope: 'api',
    input: z.object({
      id: params.idOrPath(),
      approval_rule_id: ruleParams.id(),
      name: ruleParams.name().optional(),
      approvals_required: ruleParams.approvalsRequired().optional(),
      ...ruleShape,
    }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, ACCESS_LEVEL.MAINTAINER);
      const rule = await deps.approvals.updateProjectRule(project, caller, input.approval_rule_id, ruleInputOf(input));
      return ruleView(deps, caller, { projectId: project.id, rule, view: projectRuleView });
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/approval_rules/:approval_rule_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ id: params.idOrPath(), approval_rule_id: ruleParams.id() }),
    handle: async ({ caller, input, deps }) => {
      const project = await projectWith(deps, caller, input.id, ACCESS_LEVEL.MAINTAINER);
      await deps.approvals.deleteProjectRule(project, caller, input.approval_rule_id);
    },
  }),
];
