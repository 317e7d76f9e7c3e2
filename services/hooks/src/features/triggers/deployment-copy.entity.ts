import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A deployment as delivery's events last described it: what a hook's `deployment_events` test
 * sends (GitLab's sample is the project's latest deployment).
 */
export const DeploymentCopy = defineEntity({
  name: 'DeploymentCopy',
  tableName: 'deployment_copies',
  properties: {
    /** Delivery's id of the deployment. */
    id: p.bigint('number').primary().autoincrement(false),
    projectId: p.bigint('number'),
    /** The deployment's facts and who deployed it, as the payload builder takes them. */
    facts: p.json<Record<string, unknown>>(),
  },
});
export type DeploymentCopy = InferEntity<typeof DeploymentCopy>;
