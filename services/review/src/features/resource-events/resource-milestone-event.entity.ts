import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A milestone set on (`add`) or removed from (`remove`) a merge request or an issue (GitLab's resource milestone event), by a user. */
export const ResourceMilestoneEvent = defineEntity({
  name: 'ResourceMilestoneEvent',
  tableName: 'resource_milestone_events',
  properties: {
    id: p.bigint('number').primary(),
    projectId: p.bigint('number'),
    /** `MergeRequest` or `Issue`. */
    resourceType: p.text(),
    resourceId: p.bigint('number'),
    /** The merge request or issue, as keys their deletion cascades through (the database computes them). */
    mergeRequestId: p
      .bigint('number')
      .nullable()
      .generated("(CASE WHEN (resource_type = 'MergeRequest'::text) THEN resource_id ELSE NULL::bigint END) stored"),
    issueId: p
      .bigint('number')
      .nullable()
      .generated("(CASE WHEN (resource_type = 'Issue'::text) THEN resource_id ELSE NULL::bigint END) stored"),
    userId: p.bigint('number'),
    milestoneId: p.bigint('number'),
    action: p.text(),
    /** The merge request's or issue's state then. */
    state: p.text(),
    createdAt: p.datetime(),
  },
});
export type ResourceMilestoneEvent = InferEntity<typeof ResourceMilestoneEvent>;
