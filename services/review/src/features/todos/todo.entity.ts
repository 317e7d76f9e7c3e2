import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** GitLab's to-do actions. */
export const TODO_ACTIONS = [
  'assigned',
  'mentioned',
  'build_failed',
  'marked',
  'approval_required',
  'unmergeable',
  'directly_addressed',
  'merge_train_removed',
  'review_requested',
  'member_access_requested',
  'review_submitted',
] as const;

/** Something a user has to do about a merge request: pending until marked done. */
export const Todo = defineEntity({
  name: 'Todo',
  tableName: 'todos',
  properties: {
    id: p.bigint('number').primary(),
    userId: p.bigint('number'),
    projectId: p.bigint('number'),
    /** GitLab's class name of the target: `MergeRequest`. */
    targetType: p.text(),
    targetId: p.bigint('number'),
    authorId: p.bigint('number'),
    action: p.text(),
    /** pending or done. */
    state: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Todo = InferEntity<typeof Todo>;

export const todosEntities = [Todo];
