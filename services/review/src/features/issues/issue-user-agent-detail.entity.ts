import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** What the user agent detail of an issue records: who created it from where (GitLab's `UserAgentDetail`). */
export const IssueUserAgentDetail = defineEntity({
  name: 'IssueUserAgentDetail',
  tableName: 'issue_user_agent_details',
  properties: {
    issueId: p.bigint('number').primary().autoincrement(false),
    userAgent: p.text(),
    ipAddress: p.text(),
    /** Whether it was submitted to the spam checker (GitLab's `akismet_submitted`). */
    submitted: p.boolean(),
    createdAt: p.datetime(),
  },
});
export type IssueUserAgentDetail = InferEntity<typeof IssueUserAgentDetail>;
