import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A key/value pair an administrator attaches to a user, e.g. to tag accounts for an integration. */
export const CustomAttribute = defineEntity({
  name: 'CustomAttribute',
  tableName: 'user_custom_attributes',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    key: p.text(),
    value: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type CustomAttribute = InferEntity<typeof CustomAttribute>;
