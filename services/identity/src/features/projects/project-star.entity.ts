import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const ProjectStar = defineEntity({
  name: 'ProjectStar',
  tableName: 'project_stars',
  properties: {
    userId: p.integer().primary(),
    projectId: p.integer().primary(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ProjectStar = InferEntity<typeof ProjectStar>;
