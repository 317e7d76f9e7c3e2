/**
 * Runs a service's background jobs and schedules from `background_jobs`. A runner has one slot
 * shared by the schedules and the kinds that ask for no concurrency, and `concurrency` slots of
 * its own for each kind that asks for more: a job that takes long holds up only its own slot.
 *
 * Guarantees: a job runs on at most one runner at a time. A claim (`FOR UPDATE SKIP LOCKED`, so
 * runners of several replicas claim side by side) takes a due job for a lease that the runner
 * renews while the job runs; a runner that died stops renewing, and another claims the job once
 * the lease ran out. A runner that lost its lease (stalled past it) changes nothing when it ends:
 * every update names its claim. A failed job is retried with capped exponential backoff, and
 * marked `failed` after its last attempt; a job done is deleted. A job can therefore run more
 * than once (a runner dying after its work but before it marked it): handlers are idempotent.
 */
import { randomUUID } from 'node:crypto';
import { inUnitOfWork, type Orm } from '@platform/db';
import type { Logger } from '@platform/logger';
import type { JobContext, JobHandler, Schedule } from './job-definitions.ts';

export interface JobRunner {
  /** Polls for due jobs until stopped. */
  start(): void;
  /** Claims and runs one due job of any kind; false when none was due. */
  runNext(): Promise<boolean>;
  /** Stops polling and waits for the jobs under way, at most the stop timeout (then aborts their signal). */
  stop(): Promise<void>;
}

export interface JobRunnerOptions {
  orm: Orm;
  logger: Logger;
  jobs?: JobHandler[];
  schedules?: Schedule[];
  /** How often due jobs are looked for, jittered; a slot that finds one, or frees up, looks again at once. */
  pollIntervalMs?: number;
  /** How long a claim lasts unless renewed; renewed every third of it while the job runs. */
  leaseMs?: number;
  /** The first retry's delay, doubled each attempt up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  stopTimeoutMs?: number;
}

interface ClaimedRow {
  id: string;
  kind: string;
  payload: unknown;
  recurring: boolean;
  attempts: number;
  max_attempts: number;
}

/** A delay spread by a tenth either way, so that replicas started together drift apart. */
function jittered(ms: number): number {
  return Math.round(ms * (0.9 + Math.random() * 0.2));
}

/** Slots claiming jobs of some kinds: at most `slots` of them run at once. */
interface Lane {
  kinds: string[];
  slots: number;
  running: Set<Promise<void>>;
  claiming?: Promise<void> | undefined;
  timer?: NodeJS.Timeout | undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { orm } = options;
  const logger = options.logger.child({ component: 'job-runner' });
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const leaseMs = options.leaseMs ?? 60_000;
  const backoffMs = options.backoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 5 * 60_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  const handlers = new Map<string, JobHandler['run']>();
  const intervals = new Map<string, number>();
  const shared: Lane = { kinds: [], slots: 1, running: new Set() };
  const lanes = [shared];
  for (const job of options.jobs ?? []) {
    if (handlers.has(job.kind)) throw new Error(`two handlers for jobs of kind ${job.kind}`);
    handlers.set(job.kind, job.run);
    if (job.concurrency > 1) lanes.push({ kinds: [job.kind], slots: job.concurrency, running: new Set() });
    else shared.kinds.push(job.kind);
  }
  for (const schedule of options.schedules ?? []) {
    if (handlers.has(schedule.name)) throw new Error(`a job kind or schedule named ${schedule.name} is declared twice`);
    handlers.set(schedule.name, (_payload, context) => schedule.run(context));
    intervals.set(schedule.name, schedule.intervalMs);
    shared.kinds.push(schedule.name);
  }
  const kinds = [...handlers.keys()];
  const aborts = new AbortController();
  let schedulesRegistered: Promise<void> | undefined;
  let stopped = false;

  const execute = <Row>(sql: string, params: unknown[]) => orm.em.fork().execute<Row[]>(sql, params);

  /** Each schedule's row, made by whichever runner comes first; due at once when new. */
  async function registerSchedules(): Promise<void> {
    for (const name of intervals.keys()) {
      await execute(
        `insert into background_jobs (kind, payload, recurring, max_attempts, run_at, created_at)
         values (?, '{}'::jsonb, true, 1, now(), now()) on conflict (kind) where recurring do nothing`,
        [name],
      );
    }
  }

  async function claim(claimId: string, claimable: string[]): Promise<ClaimedRow | undefined> {
    schedulesRegistered ??= registerSchedules();
    await schedulesRegistered;
    // The runner only claims kinds it handles: replicas of another version may share the table.
    const rows = await execute<ClaimedRow>(
      `update background_jobs
       set state = 'running', attempts = attempts + 1, locked_by = ?, locked_until = now() + (? * interval '1 millisecond')
       where id = (
         select id from background_jobs
         where kind in (${claimable.map(() => '?').join(', ')}) and run_at <= now()
           and (state = 'pending' or (state = 'running' and locked_until < now()))
         order by run_at, id limit 1 for update skip locked
       )
       returning id, kind, payload, recurring, attempts, max_attempts`,
      [claimId, leaseMs, ...claimable],
    );
    return rows[0];
  }

  /**
   * Applies `change` (an update or a delete of `background_jobs`) to the claimed row, unless
   * another runner took it over meanwhile.
   */
  async function settle(job: ClaimedRow, claimId: string, change: string, params: unknown[]): Promise<void> {
    const rows = await execute(`${change} where id = ? and locked_by = ? returning id`, [...params, job.id, claimId]);
    if (rows.length === 0) logger.warn({ jobId: job.id, kind: job.kind }, 'job lease lost before it ended: another runner has it');
  }

  const release = "update background_jobs set state = 'pending', locked_until = null, locked_by = null";

  async function succeeded(job: ClaimedRow, claimId: string): Promise<void> {
    if (job.recurring) {
      const next = jittered(intervals.get(job.kind) ?? 0);
      await settle(job, claimId, `${release}, attempts = 0, last_error = null, run_at = now() + (? * interval '1 millisecond')`, [next]);
    } else {
      await settle(job, claimId, 'delete from background_jobs', []);
    }
  }

  async function failed(job: ClaimedRow, claimId: string, error: string): Promise<void> {
    if (job.recurring) {
      const next = jittered(intervals.get(job.kind) ?? 0);
      await settle(job, claimId, `${release}, attempts = 0, last_error = ?, run_at = now() + (? * interval '1 millisecond')`, [
        error,
        next,
      ]);
    } else if (job.attempts >= job.max_attempts) {
      await settle(job, claimId, "update background_jobs set state = 'failed', locked_until = null, locked_by = null, last_error = ?", [
        error,
      ]);
    } else {
      const delay = jittered(Math.min(maxBackoffMs, backoffMs * 2 ** (job.attempts - 1)));
      await settle(job, claimId, `${release}, last_error = ?, run_at = now() + (? * interval '1 millisecond')`, [error, delay]);
    }
  }

  /** Runs a claimed job and records its outcome. */
  async function run(job: ClaimedRow, claimId: string): Promise<void> {
    const logged = { jobId: job.id, kind: job.kind, attempt: job.attempts };
    // Runners that died with it every time: the job is not tried again.
    if (!job.recurring && job.attempts > job.max_attempts) {
      await failed(job, claimId, `abandoned by its runner ${job.max_attempts} times`);
      logger.error(logged, 'job failed: its runners kept dying');
      return;
    }
    const renewal = setInterval(() => {
      execute(`update background_jobs set locked_until = now() + (? * interval '1 millisecond') where id = ? and locked_by = ?`, [
        leaseMs,
        job.id,
        claimId,
      ]).catch((error: unknown) => logger.warn({ ...logged, err: error }, 'job lease not renewed'));
    }, leaseMs / 3);
    const context: JobContext = { jobId: Number(job.id), attempt: job.attempts, signal: aborts.signal };
    const handler = handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for jobs of kind ${job.kind}`);
      await inUnitOfWork(orm, () => handler(job.payload, context));
    } catch (error) {
      clearInterval(renewal);
      const final = !job.recurring && job.attempts >= job.max_attempts;
      logger[final ? 'error' : 'warn']({ ...logged, err: error }, final ? 'job failed for good' : 'job failed; it will be retried');
      await failed(job, claimId, messageOf(error));
      return;
    }
    clearInterval(renewal);
    await succeeded(job, claimId);
  }

  async function runNext(): Promise<boolean> {
    if (kinds.length === 0) return false;
    const claimId = randomUUID();
    const job = await claim(claimId, kinds);
    if (!job) return false;
    await run(job, claimId);
    return true;
  }

  /** Claims jobs of the lane while it has free slots and jobs are due, then looks again a poll interval later. */
  function fill(lane: Lane): void {
    if (stopped || lane.claiming) return;
    clearTimeout(lane.timer);
    lane.claiming = (async () => {
      while (!stopped && lane.running.size < lane.slots) {
        const claimId = randomUUID();
        const job = await claim(claimId, lane.kinds);
        if (!job) return;
        const running: Promise<void> = run(job, claimId)
          .catch((error: unknown) => logger.error({ err: error, jobId: job.id, kind: job.kind }, 'job outcome not recorded'))
          .finally(() => {
            lane.running.delete(running);
            // A freed slot looks for the next due job at once.
            fill(lane);
          });
        lane.running.add(running);
      }
    })()
      .catch((error: unknown) => logger.error({ err: error }, 'background jobs not claimed'))
      .finally(() => {
        lane.claiming = undefined;
        if (!stopped) lane.timer = setTimeout(() => fill(lane), jittered(pollIntervalMs));
      });
  }

  return {
    start() {
      for (const lane of lanes) if (lane.kinds.length > 0) fill(lane);
    },
    runNext,
    async stop() {
      stopped = true;
      for (const lane of lanes) clearTimeout(lane.timer);
      // A claim under way may still start a job: wait for the claims, then for every job running.
      const underWay = (async () => {
        await Promise.all(lanes.map((lane) => lane.claiming));
        await Promise.all(lanes.flatMap((lane) => [...lane.running]));
      })();
      let timeout: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timed out'>((resolve) => {
        timeout = setTimeout(() => resolve('timed out'), stopTimeoutMs);
      });
      const outcome = await Promise.race([underWay, timedOut]);
      clearTimeout(timeout);
      if (outcome === 'timed out') {
        // Their leases run out and other runners take the jobs up again.
        logger.warn({ stopTimeoutMs }, 'stopped while jobs were still running');
        aborts.abort();
      }
    },
  };
}
