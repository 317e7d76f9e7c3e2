import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A label added to (`add`) or removed from (`remove`) a merge request or an issue (GitLab's resource label event), by a user; labels are named by title, as merge requests and issues carry them. */
export const ResourceLabelEvent = defineEntity({
  name: 'ResourceLabelEvent',
  tableName: 'resource_label_events',
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
    labelTitle: p.text(),
    action: p.text(),
    createdAt: p.datetime(),
  },
});
export type ResourceLabelEvent = InferEntity<typeof ResourceLabelEvent>;
