import { z } from 'zod';
import type { AuthenticatedCaller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import { params, routesOf } from '@platform/http';
import { ACCESS_LEVEL, type ProjectAccess } from '@platform/identity-client';
import type { MergeRequest } from '../merge-requests/merge-request.entity.ts';
import { approvalStateView, idsOfState, mergeRequestApprovalsView, mergeRequestRuleView } from './approval-views.ts';
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

const perMergeRequest = { id: params.idOrPath(), merge_request_iid: ruleParams.id() };

/** The merge request behind `:merge_request_iid`, once the caller passed the project's check. */
async function mergeRequestOf(
  deps: ApprovalsRouteDeps,
  caller: AuthenticatedCaller,
  input: { id: string | number; merge_request_iid: number },
  minimumLevel: number,
) {
  const project = await projectWith(deps, caller, input.id, minimumLevel);
  return { project, mergeRequest: await deps.mergeRequests.get(project.id, input.merge_request_iid) };
}

/** Developers change a merge request's rules, and so does its author. */
async function editableMergeRequest(
  deps: ApprovalsRouteDeps,
  caller: AuthenticatedCaller,
  input: { id: string | number; merge_request_iid: number },
) {
  const found = await mergeRequestOf(deps, caller, input, ACCESS_LEVEL.REPORTER);
  const { project, mergeRequest } = found;
  if (!project.isAdmin && project.accessLevel < ACCESS_LEVEL.DEVELOPER && mergeRequest.authorId !== caller.userId)
    throw new ForbiddenError();
  return found;
}

async function approvalsView(deps: ApprovalsRouteDeps, caller: AuthenticatedCaller, project: ProjectAccess, mergeRequest: MergeRequest) {
  const state = await deps.approvals.state(mergeRequest);
  const context = await viewContext(deps, caller, { projectId: project.id, ...idsOfState(state) });
  return mergeRequestApprovalsView(mergeRequest, state, {
    ...context,
    callerId: caller.userId,
    userCanApprove: mergeRequest.state === 'opened' && deps.approvals.canApprove(state, project, caller),
  });
}

export const mergeRequestApprovalsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/approvals',
    access: 'user',
    scope: 'read_api',
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await mergeRequestOf(deps, caller, input, ACCESS_LEVEL.REPORTER);
      return approvalsView(deps, caller, project, mergeRequest);
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/approvals',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ ...perMergeRequest, approvals_required: ruleParams.approvalsRequired() }),
    handle: async ({ caller, input, deps }) => {
      const { project } = await editableMergeRequest(deps, caller, input);
      await deps.approvals.requireOverridable(project.id);
      // The merge request's own deprecated `approvals_before_merge`, as updating it with that parameter sets.
      const repository = await deps.repositories.ensure(project.id);
      const updated = await deps.updates.update({ project, repository }, caller, input.merge_request_iid, {
        approvalsBeforeMerge: input.approvals_required,
      });
      return approvalsView(deps, caller, project, updated);
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/approvers',
    access: 'user',
    scope: 'api',
    input: z.object({ ...perMergeRequest, approver_ids: params.integerList(100), approver_group_ids: params.integerList(100) }),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await editableMergeRequest(deps, caller, input);
      await deps.approvals.setMergeRequestApprovers(mergeRequest, { userIds: input.approver_ids, groupIds: input.approver_group_ids });
      return approvalsView(deps, caller, project, mergeRequest);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/approval_state',
    access: 'user',
    scope: 'read_api',
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await mergeRequestOf(deps, caller, input, ACCESS_LEVEL.REPORTER);
      const state = await deps.approvals.state(mergeRequest);
      return approvalStateView(state, await viewContext(deps, caller, { projectId: project.id, ...idsOfState(state) }));
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/approve',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ ...perMergeRequest, sha: z.string().max(64).optional(), approval_password: z.string().max(1024).optional() }),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await mergeRequestOf(deps, caller, input, ACCESS_LEVEL.REPORTER);
      await deps.approvals.approve({ project, caller, mergeRequest, sha: input.sha, password: input.approval_password });
      return approvalsView(deps, caller, project, mergeRequest);
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/unapprove',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await mergeRequestOf(deps, caller, input, ACCESS_LEVEL.REPORTER);
      await deps.approvals.unapprove({ caller, mergeRequest });
      return approvalsView(deps, caller, project, mergeRequest);
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/approval_rules',
    access: 'user',
    scope: 'read_api',
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await mergeRequestOf(deps, caller, input, ACCESS_LEVEL.REPORTER);
      const rules = await deps.approvals.mergeRequestRules(mergeRequest);
      return rulesView(deps, caller, { projectId: project.id, rules, view: mergeRequestRuleView });
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/approval_rules',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      ...perMergeRequest,
      name: ruleParams.name(),
      approvals_required: ruleParams.approvalsRequired(),
      approval_project_rule_id: ruleParams.id().optional(),
      user_ids: ruleParams.ids().optional(),
      group_ids: ruleParams.ids().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await editableMergeRequest(deps, caller, input);
      const rule = await deps.approvals.createMergeRequestRule(project, caller, mergeRequest, {
        ...ruleInputOf(input),
        approvalProjectRuleId: input.approval_project_rule_id,
      });
      return ruleView(deps, caller, { projectId: project.id, rule, view: mergeRequestRuleView });
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id',
    access: 'user',
    scope: 'api',
    input: z.object({
      ...perMergeRequest,
      approval_rule_id: ruleParams.id(),
      name: ruleParams.name().optional(),
      approvals_required: ruleParams.approvalsRequired().optional(),
      user_ids: ruleParams.ids().optional(),
      group_ids: ruleParams.ids().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await editableMergeRequest(deps, caller, input);
      const rule = await deps.approvals.updateMergeRequestRule(project, caller, mergeRequest, input.approval_rule_id, ruleInputOf(input));
      return ruleView(deps, caller, { projectId: project.id, rule, view: mergeRequestRuleView });
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/merge_requests/:merge_request_iid/approval_rules/:approval_rule_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ ...perMergeRequest, approval_rule_id: ruleParams.id() }),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await editableMergeRequest(deps, caller, input);
      await deps.approvals.deleteMergeRequestRule(project, caller, mergeRequest, input.approval_rule_id);
    },
  }),
];
