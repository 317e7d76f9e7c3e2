import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const AVAILABILITIES = ['not_set', 'busy'] as const;

/** At most one per user; a cleared status is a deleted row. */
export const UserStatus = defineEntity({
  name: 'UserStatus',
  tableName: 'user_statuses',
  properties: {
    userId: p.integer().primary().autoincrement(false),
    emoji: p.text(),
    message: p.text().nullable(),
    availability: p.enum(AVAILABILITIES).default('not_set'),
    clearStatusAt: p.datetime().nullable(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type UserStatus = InferEntity<typeof UserStatus>;
