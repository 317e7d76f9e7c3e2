import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CI_STATUSES } from '../pipelines/pipeline.entity.ts';

/** One status an external CI posted for a commit (GitLab's `GenericCommitStatus`), a job of its pipeline's `external` stage. */
export const CommitStatus = defineEntity({
  name: 'CommitStatus',
  tableName: 'commit_statuses',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    projectId: p.bigint('number'),
    pipelineId: p.bigint('number'),
    sha: p.text(),
    ref: p.text(),
    name: p.text(),
    stage: p.text(),
    status: p.enum(CI_STATUSES),
    description: p.text().nullable(),
    targetUrl: p.text().nullable(),
    coverage: p.double().nullable(),
    allowFailure: p.boolean(),
    /** A newer status of the same name in the pipeline replaced it: only `all=true` lists it. */
    retried: p.boolean(),
    userId: p.integer(),
    userUsername: p.text(),
    userName: p.text(),
    createdAt: p.datetime(),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});
export type CommitStatus = InferEntity<typeof CommitStatus>;
