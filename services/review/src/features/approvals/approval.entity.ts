import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A project's approval settings (GitLab's project columns); a project without a row has the defaults. */
export const ApprovalSettings = defineEntity({
  name: 'ApprovalSettings',
  tableName: 'approval_settings',
  properties: {
    projectId: p.bigint('number').primary().autoincrement(false),
    /** Deprecated: approvals any eligible member gives, when no rule applies. */
    approvalsBeforeMerge: p.integer(),
    resetApprovalsOnPush: p.boolean(),
    disableOverridingApproversPerMergeRequest: p.boolean(),
    mergeRequestsAuthorApproval: p.boolean(),
    mergeRequestsDisableCommittersApproval: p.boolean(),
    requirePasswordToApprove: p.boolean(),
    /** Deprecated approvers (`PUT /projects/:id/approvers`): who counts toward `approvalsBeforeMerge`. */
    approverIds: p.array(Number, String).columnType('bigint[]'),
    approverGroupIds: p.array(Number, String).columnType('bigint[]'),
    updatedAt: p.datetime(),
  },
});
export type ApprovalSettings = InferEntity<typeof ApprovalSettings>;

/** A merge request's own deprecated approvers (its `approvals_before_merge` is the merge request's). */
export const MergeRequestApprovalSettings = defineEntity({
  name: 'MergeRequestApprovalSettings',
  tableName: 'merge_request_approval_settings',
  properties: {
    mergeRequestId: p.bigint('number').primary().autoincrement(false),
    /** Null until set: the project's approvers apply. */
    approverIds: p.array(Number, String).columnType('bigint[]').nullable(),
    approverGroupIds: p.array(Number, String).columnType('bigint[]').nullable(),
    updatedAt: p.datetime(),
  },
});
export type MergeRequestApprovalSettings = InferEntity<typeof MergeRequestApprovalSettings>;

/**
 * An approval rule: of a project (`mergeRequestId` null), or of one merge request (its own, a
 * copy of a project rule, or a `code_owner` rule made from the CODEOWNERS file).
 */
export const ApprovalRule = defineEntity({
  name: 'ApprovalRule',
  tableName: 'approval_rules',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    mergeRequestId: p.bigint('number').nullable(),
    /** A code owner rule's name is its CODEOWNERS pattern. */
    name: p.text(),
    /** regular, any_approver, code_owner or report_approver. */
    ruleType: p.text(),
    approvalsRequired: p.integer(),
    userIds: p.array(Number, String).columnType('bigint[]'),
    groupIds: p.array(Number, String).columnType('bigint[]'),
    /** The protected branches a project rule applies to; none: every branch. */
    protectedBranchIds: p.array(Number, String).columnType('bigint[]'),
    /** The project rule a merge request rule was copied from. */
    sourceRuleId: p.bigint('number').nullable(),
    /** The CODEOWNERS section of a code owner rule (`codeowners` for the unnamed one). */
    section: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ApprovalRule = InferEntity<typeof ApprovalRule>;

/** A user's approval of a merge request, at the source head they saw. */
export const Approval = defineEntity({
  name: 'Approval',
  tableName: 'approvals',
  properties: {
    id: p.bigint('number').primary(),
    mergeRequestId: p.bigint('number'),
    userId: p.bigint('number'),
    sha: p.text(),
    createdAt: p.datetime(),
  },
});
export type Approval = InferEntity<typeof Approval>;

export const approvalsEntities = [ApprovalSettings, MergeRequestApprovalSettings, ApprovalRule, Approval];
