import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A user as identity's events describe them: what the activity feeds need to find a user by
 * username, show an author and honour a private profile, without asking identity per request.
 */
export const ActivityUser = defineEntity({
  name: 'ActivityUser',
  tableName: 'activity_users',
  properties: {
    id: p.integer().primary().autoincrement(false),
    username: p.text(),
    name: p.text(),
    state: p.text(),
    privateProfile: p.boolean(),
  },
});
export type ActivityUser = InferEntity<typeof ActivityUser>;
