import type { EntityManager } from '@mikro-orm/core';
import { BackgroundJob } from './background-job.entity.ts';

/** A kind of job and its payload's shape, declared once for the code that enqueues it and its handler. */
export interface JobDefinition<Payload> {
  kind: string;
  /** Runs (failed or abandoned by a runner that died) before the job is marked failed. */
  maxAttempts: number;
  /**
   * How many jobs of this kind one runner runs at once, beside the others. 1 (the default) shares
   * the runner's single slot with every other such kind and the schedules; more gives the kind
   * slots of its own, so that a slow job of it (a receiver that hangs) holds up neither the other
   * kinds nor more than one of its slots.
   */
  concurrency: number;
  /** Never read: carries the payload's type. */
  readonly payload?: Payload;
}

export const DEFAULT_MAX_ATTEMPTS = 5;

/** Kinds are named `<service>.<what>` (`review.storage_move`); the payload is stored as JSON. */
export function defineJob<Payload>(kind: string, options: { maxAttempts?: number; concurrency?: number } = {}): JobDefinition<Payload> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`jobs of kind ${kind}: concurrency must be a positive integer`);
  return { kind, maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS, concurrency };
}

/**
 * Adds a job through `em`, so that it commits or rolls back with the change that asked for it
 * (like `recordEvent`); a runner of the service takes it up once it is due (now, or `runAt`).
 */
export function enqueueJob<Payload>(
  em: EntityManager,
  definition: JobDefinition<Payload>,
  payload: Payload,
  options: { runAt?: Date } = {},
): void {
  em.create(BackgroundJob, {
    kind: definition.kind,
    payload,
    maxAttempts: definition.maxAttempts,
    ...(options.runAt ? { runAt: options.runAt } : {}),
  });
}

/** What a running job is told besides its payload. */
export interface JobContext {
  jobId: number;
  /** 1 on the first run. */
  attempt: number;
  /** Aborted when the runner stops and the job has not finished within the stop timeout. */
  signal: AbortSignal;
}

/** Carries out jobs of one kind: throw to have the job retried. Declared in a feature's `jobs`. */
export interface JobHandler {
  kind: string;
  /** The definition's `concurrency`. */
  concurrency: number;
  run(payload: unknown, context: JobContext): Promise<void>;
}

export function handleJob<Payload>(
  definition: JobDefinition<Payload>,
  run: (payload: Payload, context: JobContext) => Promise<void>,
): JobHandler {
  return { kind: definition.kind, concurrency: definition.concurrency, run: (payload, context) => run(payload as Payload, context) };
}

/**
 * Work repeated every `intervalMs` (jittered by a tenth either way) on one replica at a time,
 * declared in a feature's `schedules`. The first run is due as soon as a runner starts; a run
 * that fails is logged and the next one comes one interval later.
 */
export interface Schedule {
  /** Named like a job kind: `<service>.<what>`. */
  name: string;
  intervalMs: number;
  run(context: JobContext): Promise<void>;
}
