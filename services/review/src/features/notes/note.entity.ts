import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Where a diff note sits: GitLab's `position`, a line (or the file) of one diff version's changes. */
export interface NotePosition {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  old_path: string;
  new_path: string;
  position_type: 'text';
  old_line: number | null;
  new_line: number | null;
  line_range: null;
}

/**
 * A comment on a merge request, an issue or a commit (GitLab's note), in a discussion of one or
 * more notes; `system` notes are the platform's own records of changes.
 */
export const Note = defineEntity({
  name: 'Note',
  tableName: 'notes',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    /** GitLab's class name of what the note is on: `MergeRequest`, `Issue` or `Commit`. */
    noteableType: p.text(),
    /** The merge request's or issue's id; null on a commit. */
    noteableId: p.bigint('number').nullable(),
    noteableIid: p.integer().nullable(),
    /** The merge request or issue it is on, as keys their deletion cascades through (the database computes them). */
    mergeRequestId: p
      .bigint('number')
      .nullable()
      .generated("(CASE WHEN (noteable_type = 'MergeRequest'::text) THEN noteable_id ELSE NULL::bigint END) stored"),
    issueId: p
      .bigint('number')
      .nullable()
      .generated("(CASE WHEN (noteable_type = 'Issue'::text) THEN noteable_id ELSE NULL::bigint END) stored"),
    /** `DiscussionNote` for a note started as a thread or replying to one, `DiffNote` for one on a diff; null for a lone comment. */
    type: p.text().nullable(),
    /** Forty hexadecimal digits shared by the notes of one discussion. */
    discussionId: p.text(),
    /** The commit a commit note is on, or a merge request's diff note names. */
    commitId: p.text().nullable(),
    position: p.json<NotePosition>().nullable(),
    /** The diff version a merge request's diff note was made on. */
    mergeRequestDiffId: p.bigint('number').nullable(),
    authorId: p.bigint('number'),
    body: p.text(),
    system: p.boolean(),
    /** Notes of threads on merge requests can be resolved. */
    resolvable: p.boolean(),
    resolvedAt: p.datetime().nullable(),
    resolvedById: p.bigint('number').nullable(),
    /** A cross-reference note's mentioner: the merge request or issue (`mentionedInId`) whose text or comment mentioned this one. */
    mentionedInType: p.text().nullable(),
    mentionedInId: p.bigint('number').nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type Note = InferEntity<typeof Note>;

export const notesEntities = [Note];
