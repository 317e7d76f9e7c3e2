/**
 * GitLab's approval arithmetic, as plain functions: which rules apply to a merge request, who is
 * eligible under each, which approvals count toward each, and how many are still missing.
 */

/** A rule with its eligible approvers resolved: its users and its groups' direct members. */
export interface ResolvedRule {
  id: number;
  name: string;
  ruleType: string;
  approvalsRequired: number;
  /** `anyone` for an any-approver rule: every approval counts. */
  eligible: number[] | 'anyone';
}

export interface RuleState {
  rule: ResolvedRule;
  /** The approvers whose approval counts toward this rule, in approval order. */
  approvedBy: number[];
  approved: boolean;
  left: number;
}

/** Which approvals count toward each rule; a user in several rules counts toward each. */
export function ruleStates(rules: readonly ResolvedRule[], approverIds: readonly number[]): RuleState[] {
  return rules.map((rule) => {
    const approvedBy = rule.eligible === 'anyone' ? [...approverIds] : approverIds.filter((id) => (rule.eligible as number[]).includes(id));
    const left = Math.max(0, rule.approvalsRequired - approvedBy.length);
    return { rule, approvedBy, approved: left === 0, left };
  });
}

/** Approvals still missing: over the rules, what each still lacks. */
export function approvalsLeft(states: readonly RuleState[]): number {
  return states.reduce((sum, state) => sum + state.left, 0);
}

/**
 * Whether some regular rule still holds back approvals of anyone it does not name, GitLab's
 * `any_approver_allowed?` negated: a regular rule with an eligible approver, while a rule is unsatisfied.
 * Any-approver and code owner rules never restrict who may approve, nor does a rule whose only
 * approvers are excluded.
 */
function approvalRestrictedToApprovers(states: readonly RuleState[]): boolean {
  const named = states.some(({ rule }) => rule.ruleType === 'regular' && rule.eligible !== 'anyone' && rule.eligible.length > 0);
  return named && !states.every((state) => state.approved);
}

/**
 * Whether a user may approve now, GitLab's `ApprovalState#can_approve?`: never twice, never as an
 * excluded user (the author, committers); always as an eligible approver of one of the rules; any
 * other user who may update the merge request only while no regular rule restricts approving to
 * its approvers, or once every rule is satisfied.
 */
export function mayApprove(options: {
  userId: number;
  /** Whether the user may update the merge request (developers and above). */
  mayUpdate: boolean;
  states: readonly RuleState[];
  approverIds: readonly number[];
  excludedIds: readonly number[];
}): boolean {
  const { userId, states } = options;
  if (options.approverIds.includes(userId) || options.excludedIds.includes(userId)) return false;
  if (states.some(({ rule }) => rule.eligible !== 'anyone' && rule.eligible.includes(userId))) return true;
  return options.mayUpdate && !approvalRestrictedToApprovers(states);
}

/** Approvals required in all. */
export function approvalsRequired(rules: readonly ResolvedRule[]): number {
  return rules.reduce((sum, rule) => sum + rule.approvalsRequired, 0);
}

/**
 * Who is eligible under a rule: its users and its groups' direct members, without the author
 * (unless authors may approve) and committers (when committers may not).
 */
export function eligibleApprovers(options: {
  userIds: readonly number[];
  groupIds: readonly number[];
  groupMembers: ReadonlyMap<number, readonly number[]>;
  excluded: ReadonlySet<number>;
}): number[] {
  const all = [...options.userIds, ...options.groupIds.flatMap((groupId) => options.groupMembers.get(groupId) ?? [])];
  return [...new Set(all)].filter((id) => !options.excluded.has(id));
}

/** GitLab's wildcard branch match of protected branches, for rules scoped to them. */
export function ruleAppliesToBranch(options: {
  protectedBranchIds: readonly number[];
  /** The ids of the protected branches that match the target branch. */
  matchingProtectedBranchIds: readonly number[];
}): boolean {
  if (options.protectedBranchIds.length === 0) return true;
  return options.protectedBranchIds.some((id) => options.matchingProtectedBranchIds.includes(id));
}
