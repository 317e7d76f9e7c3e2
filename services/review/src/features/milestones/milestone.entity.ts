import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A project milestone, numbered `iid` within the project; its title is unique there. */
export const Milestone = defineEntity({
  name: 'Milestone',
  tableName: 'milestones',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    iid: p.integer(),
    title: p.text(),
    description: p.text().nullable(),
    /** active or closed. */
    state: p.text(),
    /** `YYYY-MM-DD`. */
    startDate: p.string().columnType('date').nullable(),
    dueDate: p.string().columnType('date').nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Milestone = InferEntity<typeof Milestone>;
