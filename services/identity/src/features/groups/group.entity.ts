import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Admin-set key/value pairs on a group, filterable with `custom_attributes[key]=value`. */
export const GroupCustomAttribute = defineEntity({
  name: 'GroupCustomAttribute',
  tableName: 'group_custom_attributes',
  properties: {
    id: p.integer().primary().autoincrement(),
    groupId: p.integer(),
    key: p.text(),
    value: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type GroupCustomAttribute = InferEntity<typeof GroupCustomAttribute>;

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
