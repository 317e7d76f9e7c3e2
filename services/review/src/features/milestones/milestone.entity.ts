import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A project's or a group's milestone, numbered `iid` within it; its title is unique there. A group's serves the group's projects. */
export const Milestone = defineEntity({
  name: 'Milestone',
  tableName: 'milestones',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number').nullable(),
    groupId: p.bigint('number').nullable(),
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
