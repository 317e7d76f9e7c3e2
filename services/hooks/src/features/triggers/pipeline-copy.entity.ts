import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * An external pipeline as delivery's events last described it: what a hook's `pipeline_events`
 * test sends (GitLab's sample is the project's latest pipeline).
 */
export const PipelineCopy = defineEntity({
  name: 'PipelineCopy',
  tableName: 'pipeline_copies',
  properties: {
    /** Delivery's id of the pipeline. */
    id: p.bigint('number').primary().autoincrement(false),
    projectId: p.bigint('number'),
    /** The pipeline's facts and who ran it, as the payload builder takes them. */
    facts: p.json<Record<string, unknown>>(),
  },
});
export type PipelineCopy = InferEntity<typeof PipelineCopy>;
