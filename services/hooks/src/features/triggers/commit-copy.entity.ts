import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A commit as the push that brought it described it (its message, author and time): what a
 * pipeline's `commit` shows, since the pipeline's event names only the sha.
 */
export const CommitCopy = defineEntity({
  name: 'CommitCopy',
  tableName: 'commit_copies',
  properties: {
    projectId: p.bigint('number').primary(),
    sha: p.text().primary(),
    message: p.text(),
    authorName: p.text(),
    authorEmail: p.text(),
    /** When it was committed (ISO 8601), as the push said it. */
    timestamp: p.text(),
  },
});
export type CommitCopy = InferEntity<typeof CommitCopy>;
