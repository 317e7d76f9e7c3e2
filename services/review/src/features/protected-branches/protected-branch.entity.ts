import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A branch name or wildcard (`release/*`) of a project whose pushes, merges and unprotection need a role. */
export const ProtectedBranch = defineEntity({
  name: 'ProtectedBranch',
  tableName: 'protected_branches',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    /** An exact branch name, or a pattern where `*` matches anything. */
    name: p.text(),
    allowForcePush: p.boolean(),
    codeOwnerApprovalRequired: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type ProtectedBranch = InferEntity<typeof ProtectedBranch>;

/** One role, user or group allowed an action on a protected branch (GitLab keeps a list per action). */
export const ProtectedBranchAccessLevel = defineEntity({
  name: 'ProtectedBranchAccessLevel',
  tableName: 'protected_branch_access_levels',
  properties: {
    id: p.bigint('number').primary(),
    protectedBranchId: p.bigint('number'),
    /** `push`, `merge` or `unprotect`. */
    action: p.text(),
    /** 0 no one, 30 developers and above, 40 maintainers and above, 60 administrators (40 for a user's or group's entry). */
    accessLevel: p.integer(),
    /** The one user this entry admits. */
    userId: p.bigint('number').nullable(),
    /** The group whose direct members this entry admits. */
    groupId: p.bigint('number').nullable(),
  },
});
export type ProtectedBranchAccessLevel = InferEntity<typeof ProtectedBranchAccessLevel>;
