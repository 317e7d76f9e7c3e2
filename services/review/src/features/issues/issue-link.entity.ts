import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Two related issues, of any projects: `relates_to`, or `blocks` (the source blocks the target; GitLab's `is_blocked_by` is stored reversed). */
export const IssueLink = defineEntity({
  name: 'IssueLink',
  tableName: 'issue_links',
  properties: {
    id: p.bigint('number').primary(),
    sourceIssueId: p.bigint('number'),
    targetIssueId: p.bigint('number'),
    /** relates_to or blocks. */
    linkType: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type IssueLink = InferEntity<typeof IssueLink>;
