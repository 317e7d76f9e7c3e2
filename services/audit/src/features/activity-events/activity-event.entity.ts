import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** GitLab's event actions, as the `action` filter names them. */
export const ACTIONS = [
  'created',
  'updated',
  'closed',
  'reopened',
  'pushed',
  'commented',
  'merged',
  'joined',
  'left',
  'destroyed',
  'expired',
  'approved',
] as const;
export type Action = (typeof ACTIONS)[number];

/** What a push did to one ref, as GitLab's `push_data` shows it. */
export interface PushData {
  commit_count: number;
  /** `created` for a new ref, `removed` for a deleted one, `pushed` otherwise. */
  action: 'created' | 'removed' | 'pushed';
  ref_type: 'branch' | 'tag';
  commit_from: string | null;
  commit_to: string | null;
  ref: string;
  commit_title: string | null;
  ref_count: null;
}

/** The comment of a `commented` event, as GitLab's `note` shows it (its author is the event's). */
export interface CommentData {
  id: number;
  body: string;
  created_at: string;
  system: boolean;
  noteable_id: number;
  noteable_type: string;
  noteable_iid: number;
}

/** One thing a user did in a project, as the activity feeds list it. */
export const ActivityEvent = defineEntity({
  name: 'ActivityEvent',
  tableName: 'activity_events',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.integer().nullable(),
    authorId: p.integer(),
    /** The author as the event named them, for authors audit has not heard of otherwise. */
    authorUsername: p.text(),
    authorName: p.text(),
    action: p.enum(ACTIONS),
    /** GitLab's class name of the target (`MergeRequest`); none for pushes, project creation, joins. */
    targetType: p.text().nullable(),
    targetId: p.integer().nullable(),
    targetIid: p.integer().nullable(),
    targetTitle: p.text().nullable(),
    pushData: p.json<PushData>().nullable(),
    note: p.json<CommentData>().nullable(),
    sourceEventId: p.uuid(),
    createdAt: p.datetime(),
  },
});
export type ActivityEvent = InferEntity<typeof ActivityEvent>;
