import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const DEPLOYMENT_STATUSES = ['created', 'running', 'success', 'failed', 'canceled'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** One deployment of a ref to an environment; `iid` counts per project. */
export const Deployment = defineEntity({
  name: 'Deployment',
  tableName: 'deployments',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    iid: p.integer(),
    environmentId: p.bigint('number'),
    ref: p.text(),
    sha: p.text(),
    tag: p.boolean(),
    status: p.enum(DEPLOYMENT_STATUSES),
    /** Who deployed, as they were named then (identity owns users; this service keeps what it shows). */
    userId: p.integer().nullable(),
    userUsername: p.text().nullable(),
    userName: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** When it reached success, failed or canceled. */
    finishedAt: p.datetime().nullable(),
  },
});
export type Deployment = InferEntity<typeof Deployment>;

/** The counter behind each project's deployment iids. */
export const DeploymentIid = defineEntity({
  name: 'DeploymentIid',
  tableName: 'deployment_iids',
  properties: {
    projectId: p.bigint('number').primary().autoincrement(false),
    lastIid: p.integer(),
  },
});
export type DeploymentIid = InferEntity<typeof DeploymentIid>;
