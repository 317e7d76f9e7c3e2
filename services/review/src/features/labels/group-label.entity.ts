import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A group label: the group's projects, and those of its subgroups, use it as if it were theirs. Unique within the group. */
export const GroupLabel = defineEntity({
  name: 'GroupLabel',
  tableName: 'group_labels',
  properties: {
    id: p.bigint('number').primary(),
    groupId: p.bigint('number'),
    /** GitLab's `name` in the API. */
    title: p.text(),
    /** `#RGB` or `#RRGGBB` (a CSS color name is stored as its hex code). */
    color: p.text(),
    description: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type GroupLabel = InferEntity<typeof GroupLabel>;
