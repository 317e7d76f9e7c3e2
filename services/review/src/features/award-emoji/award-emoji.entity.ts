import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** An emoji reaction a user gave a merge request (GitLab's award emoji). */
export const AwardEmoji = defineEntity({
  name: 'AwardEmoji',
  tableName: 'award_emoji',
  properties: {
    id: p.bigint('number').primary(),
    name: p.text(),
    userId: p.bigint('number'),
    /** GitLab's class name of what it is on: `MergeRequest`. */
    awardableType: p.text(),
    awardableId: p.bigint('number'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type AwardEmoji = InferEntity<typeof AwardEmoji>;

export const awardEmojiEntities = [AwardEmoji];
