import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A change of a merge request's or an issue's state (GitLab's resource state event): `closed`, `reopened` or `merged`, by a user. */
export const ResourceStateEvent = defineEntity({
  name: 'ResourceStateEvent',
  tableName: 'resource_state_events',
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
    state: p.text(),
    createdAt: p.datetime(),
  },
});
export type ResourceStateEvent = InferEntity<typeof ResourceStateEvent>;
