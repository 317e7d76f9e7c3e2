import { describe, expect, it } from '@jest/globals';
import {
  approvalsLeft,
  approvalsRequired,
  eligibleApprovers,
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
