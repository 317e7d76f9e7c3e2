import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** One group shared with another: members of `sharedWithGroupId` get up to `groupAccess` in `sharedGroupId`. */
export const GroupGroupLink = defineEntity({
  name: 'GroupGroupLink',
  tableName: 'group_group_links',
  properties: {
    id: p.integer().primary().autoincrement(),
    sharedGroupId: p.integer(),
    sharedWithGroupId: p.integer(),
    groupAccess: p.integer(),
    expiresAt: p.string().columnType('date').nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type GroupGroupLink = InferEntity<typeof GroupGroupLink>;
