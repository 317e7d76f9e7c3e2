import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A protected branch (a name or wildcard) as review's events last described it: what a push's `ref_protected` says. */
export const ProtectedBranchCopy = defineEntity({
  name: 'ProtectedBranchCopy',
  tableName: 'protected_branch_copies',
  properties: {
    /** Review's id of the protected branch. */
    id: p.bigint('number').primary().autoincrement(false),
    projectId: p.bigint('number'),
    name: p.text(),
  },
});
export type ProtectedBranchCopy = InferEntity<typeof ProtectedBranchCopy>;
