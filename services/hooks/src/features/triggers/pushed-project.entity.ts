import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A project some push brought commits to, and the namespace it is in now: the project a group
 * hook's test describes (GitLab's `first_non_empty_project` of the group).
 */
export const PushedProject = defineEntity({
  name: 'PushedProject',
  tableName: 'pushed_projects',
  properties: {
    projectId: p.bigint('number').primary().autoincrement(false),
    namespaceId: p.bigint('number'),
  },
});
export type PushedProject = InferEntity<typeof PushedProject>;
