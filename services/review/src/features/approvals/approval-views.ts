import type { MergeRequest } from '../merge-requests/merge-request.entity.ts';
import type { UserSummary } from '../core/user-directory.ts';
import { mergeRequestIdentityView } from '../merge-requests/merge-request-views.ts';
import type { BranchProtection } from '../protected-branches/branch-protection.ts';
import { protectedBranchView } from '../protected-branches/protected-branch-views.ts';
import type { ApprovalSettings } from './approval.entity.ts';
import { ownOrProjectApprovers, type ApprovalState, type ShownRule } from './approvals-service.ts';
import type { GroupSummary } from './approver-directory.ts';

/** The users, groups and protected branches views name, looked up once per request. */
export interface ApprovalViewContext {
  users: Map<number, UserSummary>;
  groups: Map<number, GroupSummary>;
  protections: BranchProtection[];
}

const usersOf = (context: ApprovalViewContext, ids: readonly number[]) =>
  ids.map((id) => context.users.get(id)).filter((user): user is UserSummary => user !== undefined);
const groupsOf = (context: ApprovalViewContext, ids: readonly number[]) =>
  ids.map((id) => context.groups.get(id)).filter((group): group is GroupSummary => group !== undefined);

/** Every user and group the rules name (with their eligible approvers), for one lookup each. */
export function idsOfRules(rules: readonly ShownRule[]): { userIds: number[]; groupIds: number[] } {
  return {
    userIds: rules.flatMap(({ rule, eligible }) => [...rule.userIds, ...eligible]),
    groupIds: rules.flatMap(({ rule }) => rule.groupIds),
  };
}

function ruleBaseView(shown: ShownRule, context: ApprovalViewContext) {
  const { rule } = shown;
  return {
    id: rule.id,
    name: rule.name,
    rule_type: rule.ruleType,
    report_type: null,
    eligible_approvers: usersOf(context, shown.eligible),
    approvals_required: rule.approvalsRequired,
    users: usersOf(context, rule.userIds),
    groups: groupsOf(context, rule.groupIds),
    contains_hidden_groups: false,
  };
}

/** A project's approval rule. */
export function projectRuleView(shown: ShownRule, context: ApprovalViewContext) {
  return {
    ...ruleBaseView(shown, context),
    protected_branches: context.protections
      .filter((protection) => shown.rule.protectedBranchIds.includes(protection.id))
      .map((protection) => protectedBranchView(protection)),
    applies_to_all_protected_branches: false,
  };
}

/** A merge request's approval rule: where it came from, and whether it differs from there. */
export function mergeRequestRuleView(shown: ShownRule, context: ApprovalViewContext) {
  const { rule, source } = shown;
  const overridden =
    source !== undefined &&
    (source.name !== rule.name ||
      source.approvalsRequired !== rule.approvalsRequired ||
      source.userIds.join() !== rule.userIds.join() ||
      source.groupIds.join() !== rule.groupIds.join());
  return {
    ...ruleBaseView(shown, context),
    source_rule: source ? { approvals_required: source.approvalsRequired } : null,
    overridden,
    section: rule.ruleType === 'code_owner' ? rule.section : null,
  };
}

/** `GET /projects/:id/approvals`, and `approvers`/`approver_groups` as the deprecated endpoint set them. */
export function approvalSettingsView(settings: ApprovalSettings, context: ApprovalViewContext) {
  return {
    approvers: usersOf(context, settings.approverIds).map((user) => ({ user })),
    approver_groups: groupsOf(context, settings.approverGroupIds).map((group) => ({ group })),
    approvals_before_merge: settings.approvalsBeforeMerge,
    reset_approvals_on_push: settings.resetApprovalsOnPush,
    selective_code_owner_removals: false,
    disable_overriding_approvers_per_merge_request: settings.disableOverridingApproversPerMergeRequest,
    merge_requests_author_approval: settings.mergeRequestsAuthorApproval,
    merge_requests_disable_committers_approval: settings.mergeRequestsDisableCommittersApproval,
    require_password_to_approve: settings.requirePasswordToApprove,
    require_reauthentication_to_approve: settings.requirePasswordToApprove,
  };
}

export function idsOfState(state: ApprovalState): { userIds: number[]; groupIds: number[] } {
  const rules = idsOfRules(state.rules.map(({ shown }) => shown));
  const deprecated = ownOrProjectApprovers(state.settings, state.mergeRequestSettings);
  return {
    userIds: [...rules.userIds, ...state.approverIds, ...deprecated.userIds],
    groupIds: [...rules.groupIds, ...deprecated.groupIds],
  };
}

/** The merge request approvals view (`GET .../approvals`, and the answer of approving). */
export function mergeRequestApprovalsView(
  mergeRequest: MergeRequest,
  state: ApprovalState,
  context: ApprovalViewContext & { userCanApprove: boolean; callerId: number },
) {
  const deprecated = ownOrProjectApprovers(state.settings, state.mergeRequestSettings);
  return {
    ...mergeRequestIdentityView(mergeRequest),
    merge_status: mergeRequest.mergeStatus,
    approved: state.approved,
    approvals_required: state.approvalsRequired,
    approvals_left: state.approvalsLeft,
    require_password_to_approve: state.settings.requirePasswordToApprove,
    approved_by: usersOf(context, state.approverIds).map((user) => ({ user })),
    suggested_approvers: usersOf(context, [...new Set(state.rules.flatMap(({ shown }) => shown.eligible))]).filter(
      (user) => !state.approverIds.includes(user.id),
    ),
    approvers: usersOf(context, deprecated.userIds).map((user) => ({ user })),
    approver_groups: groupsOf(context, deprecated.groupIds).map((group) => ({ group })),
    user_has_approved: state.approverIds.includes(context.callerId),
    user_can_approve: context.userCanApprove,
    approval_rules_left: state.rules
      .filter((rule) => !rule.approved)
      .map(({ shown }) => ({ id: shown.rule.id, name: shown.rule.name, rule_type: shown.rule.ruleType })),
    has_approval_rules: state.rules.some(({ shown }) => shown.rule.ruleType !== 'any_approver'),
    merge_request_approvers_available: true,
    multiple_approval_rules_available: true,
    invalid_approvers_rules: [],
  };
}

/** `GET .../approval_state`. */
export function approvalStateView(state: ApprovalState, context: ApprovalViewContext) {
  return {
    approval_rules_overwritten: state.overwritten,
    rules: state.rules.map(({ shown, approvedBy, approved }) => ({
      ...mergeRequestRuleView(shown, context),
      code_owner: shown.rule.ruleType === 'code_owner',
      approved_by: usersOf(context, approvedBy),
      approved,
    })),
  };
}
