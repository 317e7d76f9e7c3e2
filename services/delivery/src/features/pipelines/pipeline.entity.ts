import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** What a pipeline or a commit status may be in, as GitLab names them (those an external CI reaches). */
export const CI_STATUSES = ['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped'] as const;
export type CiStatus = (typeof CI_STATUSES)[number];

/** The statuses after which nothing runs any more. */
export const FINISHED_STATUSES: readonly CiStatus[] = ['success', 'failed', 'canceled', 'skipped'];

/** An external pipeline: the commit statuses an external CI posted for one sha and ref; `iid` counts per project. */
export const Pipeline = defineEntity({
  name: 'Pipeline',
  tableName: 'pipelines',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    iid: p.integer(),
    sha: p.text(),
    ref: p.text(),
    tag: p.boolean(),
    beforeSha: p.text(),
    /** `external`: every pipeline here comes from commit statuses. */
    source: p.text(),
    status: p.enum(CI_STATUSES),
    /** Who posted its first status, as they were named then (identity owns users). */
    userId: p.integer(),
    userUsername: p.text(),
    userName: p.text(),
    /** The average coverage its statuses reported, two decimals; null when none did. */
    coverage: p.text().nullable(),
    /** Grows with each change: what consumers of its events keep the newest by. */
    version: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});
export type Pipeline = InferEntity<typeof Pipeline>;

/** The counter behind each project's pipeline iids. */
export const PipelineIid = defineEntity({
  name: 'PipelineIid',
  tableName: 'pipeline_iids',
  properties: {
    projectId: p.bigint('number').primary().autoincrement(false),
    lastIid: p.integer(),
  },
});
export type PipelineIid = InferEntity<typeof PipelineIid>;
