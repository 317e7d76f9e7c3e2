import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A merge request shipped by a successful deployment (delivery owns deployments; review keeps
 * what its merge request lists filter on: the environment and when the deployment finished).
 */
export const MergeRequestDeployment = defineEntity({
  name: 'MergeRequestDeployment',
  tableName: 'merge_request_deployments',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    mergeRequestId: p.bigint('number'),
    projectId: p.bigint('number'),
    deploymentId: p.bigint('number'),
    environmentName: p.text(),
    deployedAt: p.datetime(),
  },
});
export type MergeRequestDeployment = InferEntity<typeof MergeRequestDeployment>;
