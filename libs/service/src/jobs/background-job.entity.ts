import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** `done` jobs are deleted; `failed` ones stay, with their last error, for an operator to look at. */
export type JobState = 'pending' | 'running' | 'failed';

/**
 * A unit of background work, or a schedule's next run (`recurring`): claimed by one runner at a
 * time for a lease (`lockedUntil`) its runner renews while it works, so that the work of a runner
 * that died is claimed again once the lease ran out.
 */
export const BackgroundJob = defineEntity({
  name: 'BackgroundJob',
  tableName: 'background_jobs',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    kind: p.text(),
    payload: p.json<unknown>(),
    /** A schedule's row: after a run it goes back to `pending`, due again one interval later. */
    recurring: p.boolean().onCreate(() => false),
    state: p
      .text()
      .$type<JobState>()
      .onCreate(() => 'pending'),
    attempts: p.integer().onCreate(() => 0),
    maxAttempts: p.integer(),
    runAt: p.datetime().onCreate(() => new Date()),
    lockedUntil: p.datetime().nullable(),
    /** The claim of the runner holding the lease; a runner that lost its lease changes nothing. */
    lockedBy: p.uuid().nullable(),
    lastError: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type BackgroundJob = InferEntity<typeof BackgroundJob>;
