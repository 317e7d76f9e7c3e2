import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const SOURCE_TYPES = ['Group', 'Project'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/**
 * A user's membership of a group or project. A row with `requestedAt` set is a pending access
 * request rather than a membership, as GitLab models it.
 */
export const Member = defineEntity({
  name: 'Member',
  tableName: 'members',
  properties: {
    id: p.integer().primary().autoincrement(),
    sourceType: p.enum(SOURCE_TYPES),
    sourceId: p.integer(),
    userId: p.integer(),
    accessLevel: p.integer(),
    expiresAt: p.string().columnType('date').nullable(),
    requestedAt: p.datetime().nullable(),
    createdBy: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type Member = InferEntity<typeof Member>;
