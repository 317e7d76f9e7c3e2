import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A comment on a merge request (GitLab's note); `system` notes are the platform's own records of changes. */
export const Note = defineEntity({
  name: 'Note',
  tableName: 'notes',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    /** GitLab's class name of what the note is on: `MergeRequest`. */
    noteableType: p.text(),
    noteableId: p.bigint('number'),
    noteableIid: p.integer(),
    authorId: p.bigint('number'),
    body: p.text(),
    system: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Note = InferEntity<typeof Note>;

export const notesEntities = [Note];
