import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A comment (no system note) as review's events last described it: what a hook's `note_events`
 * test sends (GitLab's sample is the project's latest note).
 */
export const NoteCopy = defineEntity({
  name: 'NoteCopy',
  tableName: 'note_copies',
  properties: {
    /** Review's id of the note. */
    id: p.bigint('number').primary().autoincrement(false),
    projectId: p.bigint('number'),
    /** The note's facts and what it is on, as the payload builder takes them. */
    facts: p.json<Record<string, unknown>>(),
  },
});
export type NoteCopy = InferEntity<typeof NoteCopy>;
