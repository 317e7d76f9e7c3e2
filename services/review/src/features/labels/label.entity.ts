import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A project label: merge requests and issues carry labels by title (`labels`), unique within the project. */
export const Label = defineEntity({
  name: 'Label',
  tableName: 'labels',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    /** GitLab's `name` in the API. */
    title: p.text(),
    /** `#RGB` or `#RRGGBB` (a CSS color name is stored as its hex code). */
    color: p.text(),
    description: p.text().nullable(),
    /** Lower is more important; null for a label without priority. */
    priority: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Label = InferEntity<typeof Label>;
