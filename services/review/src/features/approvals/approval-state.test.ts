import { describe, expect, it } from '@jest/globals';
import {
  approvalsLeft,
  approvalsRequired,
  eligibleApprovers,
  mayApprove,
  ruleAppliesToBranch,
  ruleStates,
  type ResolvedRule,
} from './approval-state.ts';

const rule = (id: number, approvalsRequired: number, eligible: ResolvedRule['eligible']): ResolvedRule => ({
  id,
  name: `rule ${id}`,
  ruleType: eligible === 'anyone' ? 'any_approver' : 'regular',
  approvalsRequired,
  eligible,
});

describe('approval arithmetic', () => {
  it('sums what each rule still lacks, never below zero per rule', () => {
    const rules = [rule(1, 2, [10, 11, 12]), rule(2, 1, [20])];
    expect(approvalsRequired(rules)).toBe(3);
    expect(approvalsLeft(ruleStates(rules, []))).toBe(3);
    // Three approvals of the first rule's users satisfy it, but the surplus does not help the second.
    const states = ruleStates(rules, [10, 11, 12]);
    expect(states.map((state) => [state.approvedBy, state.approved, state.left])).toEqual([
      [[10, 11, 12], true, 0],
      [[], false, 1],
    ]);
    expect(approvalsLeft(states)).toBe(1);
    expect(approvalsLeft(ruleStates(rules, [10, 20, 11]))).toBe(0);
  });

  it('counts a user in several rules toward each of them', () => {
    const rules = [rule(1, 1, [10, 30]), rule(2, 1, [20, 30])];
    expect(approvalsLeft(ruleStates(rules, [30]))).toBe(0);
    expect(approvalsLeft(ruleStates(rules, [10]))).toBe(1);
  });

  it('lets every approval count toward an any-approver rule, and ignores approvals of nobody eligible', () => {
    expect(approvalsLeft(ruleStates([rule(1, 2, 'anyone')], [99, 98]))).toBe(0);
    expect(approvalsLeft(ruleStates([rule(1, 1, [10])], [99]))).toBe(1);
    expect(approvalsLeft(ruleStates([rule(1, 0, [10])], []))).toBe(0);
  });
});

describe('eligible approvers', () => {
  it('are the users and the direct members of the groups, each once, less the excluded', () => {
    const groupMembers = new Map([
      [5, [10, 11]],
      [6, [11, 12]],
    ]);
    expect(eligibleApprovers({ userIds: [12, 13], groupIds: [5, 6, 7], groupMembers, excluded: new Set([13]) })).toEqual([12, 10, 11]);
  });
});

describe('rules scoped to protected branches', () => {
  it('apply to every branch without protected branches, else only to branches one of them matches', () => {
    expect(ruleAppliesToBranch({ protectedBranchIds: [], matchingProtectedBranchIds: [] })).toBe(true);
    expect(ruleAppliesToBranch({ protectedBranchIds: [3], matchingProtectedBranchIds: [2, 3] })).toBe(true);
    expect(ruleAppliesToBranch({ protectedBranchIds: [3], matchingProtectedBranchIds: [2] })).toBe(false);
  });
});

describe('who may approve', () => {
  const AUTHOR = 1;
  const NAMED = 10;
  const TEAMMATE = 11;
  const OWNER = 12;
  const DEVELOPER = 20;
  const REPORTER = 21;
  const typed = (ruleType: string, base: ResolvedRule): ResolvedRule => ({ ...base, ruleType });
  const teamRule = (approvalsRequired: number) =>
    rule(
      2,
      approvalsRequired,
      eligibleApprovers({ userIds: [], groupIds: [5], groupMembers: new Map([[5, [TEAMMATE]]]), excluded: new Set() }),
    );
  const may = (userId: number, rules: ResolvedRule[], approverIds: number[] = [], mayUpdate = userId !== REPORTER) =>
    mayApprove({ userId, mayUpdate, states: ruleStates(rules, approverIds), approverIds, excludedIds: [AUTHOR] });

  it('lets only the approvers of a user rule approve until it is satisfied, then any developer', () => {
    const rules = [rule(1, 1, [NAMED])];
    expect(may(DEVELOPER, rules)).toBe(false);
    expect(may(NAMED, rules)).toBe(true);
    expect(may(DEVELOPER, rules, [NAMED])).toBe(true);
  });

  it("lets only a group rule's direct members approve until it is satisfied", () => {
    const rules = [teamRule(1)];
    expect(may(DEVELOPER, rules)).toBe(false);
    expect(may(TEAMMATE, rules)).toBe(true);
    expect(may(DEVELOPER, rules, [TEAMMATE])).toBe(true);
  });

  it('holds back anyone not named while any rule is unsatisfied, even a satisfied rule that names them', () => {
    const rules = [rule(1, 1, [NAMED]), teamRule(1)];
    expect(may(DEVELOPER, rules, [NAMED])).toBe(false);
    // Named by a satisfied rule, still an eligible approver.
    expect(may(TEAMMATE, rules, [NAMED])).toBe(true);
    expect(may(DEVELOPER, rules, [NAMED, TEAMMATE])).toBe(true);
  });

  it("lets a code owner rule's approvers approve beside the regular rules, but a code owner rule alone restricts no one", () => {
    const codeOwners = typed('code_owner', rule(3, 1, [OWNER]));
    expect(may(OWNER, [rule(1, 1, [NAMED]), codeOwners])).toBe(true);
    expect(may(DEVELOPER, [rule(1, 1, [NAMED]), codeOwners])).toBe(false);
    // The regular rule satisfied, the code owner rule is not yet: the merge request is not approved.
    expect(may(DEVELOPER, [rule(1, 1, [NAMED]), codeOwners], [NAMED])).toBe(false);
    expect(may(DEVELOPER, [codeOwners])).toBe(true);
  });

  it('lets any developer approve without rules, under an any-approver rule, or under rules requiring nothing', () => {
    expect(may(DEVELOPER, [])).toBe(true);
    expect(may(DEVELOPER, [rule(1, 2, 'anyone')])).toBe(true);
    expect(may(DEVELOPER, [rule(1, 0, [NAMED])])).toBe(true);
    // A rule requiring nothing does not satisfy another that requires an approval.
    expect(may(DEVELOPER, [rule(1, 0, [NAMED]), teamRule(1)])).toBe(false);
  });

  it('does not restrict approving to a rule whose only approvers are excluded', () => {
    const onlyAuthor = rule(
      1,
      1,
      eligibleApprovers({ userIds: [AUTHOR], groupIds: [], groupMembers: new Map(), excluded: new Set([AUTHOR]) }),
    );
    expect(may(DEVELOPER, [onlyAuthor])).toBe(true);
  });

  it('never lets anyone approve twice, nor the excluded author, nor a reporter no rule names', () => {
    expect(may(NAMED, [rule(1, 2, [NAMED, TEAMMATE])], [NAMED])).toBe(false);
    expect(may(AUTHOR, [])).toBe(false);
    expect(may(AUTHOR, [rule(1, 1, [AUTHOR, NAMED])])).toBe(false);
    expect(may(REPORTER, [])).toBe(false);
    expect(may(REPORTER, [rule(1, 1, [REPORTER])])).toBe(true);
  });
});
