import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A user's explicit choice to follow a merge request or not. */
export const Subscription = defineEntity({
  name: 'Subscription',
  tableName: 'subscriptions',
  properties: {
    mergeRequestId: p.bigint('number').primary().autoincrement(false),
    userId: p.bigint('number').primary().autoincrement(false),
    subscribed: p.boolean(),
    updatedAt: p.datetime(),
  },
});
export type Subscription = InferEntity<typeof Subscription>;

export const subscriptionsEntities = [Subscription];
