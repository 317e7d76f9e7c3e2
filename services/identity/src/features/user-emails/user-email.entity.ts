import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A user's secondary email address; the primary one is the user's `email`. */
export const UserEmail = defineEntity({
  name: 'UserEmail',
  tableName: 'emails',
  properties: {
    id: p.integer().primary().autoincrement(),
    userId: p.integer(),
    email: p.text(),
    /** Set once the address is confirmed (at once when an administrator skips confirmation); only confirmed ones identify their user. */
    confirmedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type UserEmail = InferEntity<typeof UserEmail>;
