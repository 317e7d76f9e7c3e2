import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A protected tag (a name or wildcard) as review's events last described it: what a tag push's `ref_protected` says. */
export const ProtectedTagCopy = defineEntity({
  name: 'ProtectedTagCopy',
  tableName: 'protected_tag_copies',
  properties: {
    /** Review's id of the protected tag. */
    id: p.bigint('number').primary().autoincrement(false),
    projectId: p.bigint('number'),
    name: p.text(),
  },
});
export type ProtectedTagCopy = InferEntity<typeof ProtectedTagCopy>;
