import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** An issue of a project's tracker, numbered `iid` within the project (apart from merge requests' iids). */
export const Issue = defineEntity({
  name: 'Issue',
  tableName: 'issues',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    iid: p.integer(),
    title: p.text(),
    description: p.text(),
    /** opened or closed. */
    state: p.text(),
    authorId: p.bigint('number'),
    assigneeIds: p.array(Number, String).columnType('bigint[]'),
    /** Label titles, as merge requests carry them. */
    labels: p.array().columnType('text[]'),
    milestoneId: p.bigint('number').nullable(),
    confidential: p.boolean(),
    discussionLocked: p.boolean().nullable(),
    /** `YYYY-MM-DD`. */
    dueDate: p.string().columnType('date').nullable(),
    closedById: p.bigint('number').nullable(),
    closedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Issue = InferEntity<typeof Issue>;
