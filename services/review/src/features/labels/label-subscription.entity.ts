import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A user following a project or group label (GitLab's label subscription): a row while subscribed. */
export const LabelSubscription = defineEntity({
  name: 'LabelSubscription',
  tableName: 'label_subscriptions',
  properties: {
    labelId: p.bigint('number').primary().autoincrement(false),
    userId: p.bigint('number').primary().autoincrement(false),
    createdAt: p.datetime(),
  },
});
export type LabelSubscription = InferEntity<typeof LabelSubscription>;
