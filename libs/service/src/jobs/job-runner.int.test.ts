/**
 * The job queue and its runners against real PostgreSQL: leases that run out, runners side by
 * side, retries, stopping, and schedules shared by two replicas.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { openDatabase, type Orm } from '@platform/db';
import { createLogger } from '@platform/logger';
import { createTestDatabase, waitFor, type TestDatabase } from '@platform/testing';
import { BackgroundJob } from './background-job.entity.ts';
import { defineJob, enqueueJob, handleJob, type JobHandler, type Schedule } from './job-definitions.ts';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from './job-runner.ts';
import { jobMigrations } from './migrations/index.ts';

const logger = createLogger({ name: 'jobs-test', level: 'silent' });
let database: TestDatabase;
let orm: Orm;
const started: JobRunner[] = [];

const sql = <Row>(query: string, values: unknown[] = []) => orm.em.fork().execute<Row[]>(query, values);

function runner(options: Omit<JobRunnerOptions, 'orm' | 'logger'>): JobRunner {
  const created = createJobRunner({ orm, logger, pollIntervalMs: 20, backoffMs: 10, ...options });
  started.push(created);
  return created;
}

async function enqueue<Payload>(definition: ReturnType<typeof defineJob<Payload>>, payloads: Payload[]): Promise<number[]> {
  const em = orm.em.fork();
  for (const payload of payloads) enqueueJob(em, definition, payload);
  await em.flush();
  const rows = await sql<{ id: string }>('select id from background_jobs where kind = ? order by id', [definition.kind]);
  return rows.map((row) => Number(row.id));
}

const rowOf = async (id: number) =>
  (
    await sql<{ state: string; attempts: number; last_error: string | null }>(
      'select state, attempts, last_error from background_jobs where id = ?',
      [id],
    )
  )[0];

beforeAll(async () => {
  database = createTestDatabase('service_jobs');
  orm = await openDatabase({ url: database.url, entities: [BackgroundJob], migrations: jobMigrations, logger });
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((each) => each.stop()));
});

afterAll(async () => {
  await orm.close();
  await database.drop();
});

describe('a job', () => {
  it('whose runner died is claimed again once its lease ran out; one whose lease runs is left alone', async () => {
    const job = defineJob<{ n: number }>('test.abandoned');
    const ran: number[] = [];
    const [abandoned, leased] = await enqueue(job, [{ n: 1 }, { n: 2 }]);
    await sql(
      "update background_jobs set state = 'running', attempts = 1, locked_by = ?, locked_until = now() - interval '1 second' where id = ?",
      [randomUUID(), abandoned],
    );
    await sql(
      "update background_jobs set state = 'running', attempts = 1, locked_by = ?, locked_until = now() + interval '1 hour' where id = ?",
      [randomUUID(), leased],
    );
    const jobs = runner({ jobs: [handleJob(job, async ({ n }) => void ran.push(n))] });

    expect(await jobs.runNext()).toBe(true);
    expect(await jobs.runNext()).toBe(false);
    expect(ran).toEqual([1]);
    // Done: gone from the queue.
    expect(await rowOf(abandoned!)).toBeUndefined();
    expect(await rowOf(leased!)).toMatchObject({ state: 'running', attempts: 1 });
  });

  it('keeps its lease while it runs longer than the lease', async () => {
    const job = defineJob<{ n: number }>('test.long');
    await enqueue(job, [{ n: 1 }]);
    let release = () => {};
    const holding = new Promise<void>((resolve) => (release = resolve));
    const runs: number[] = [];
    const handler = handleJob(job, async ({ n }) => {
      runs.push(n);
      await holding;
    });
    const first = runner({ jobs: [handler], leaseMs: 150 });
    const second = runner({ jobs: [handler], leaseMs: 150 });
    const running = first.runNext();
    await waitFor(async () => (runs.length === 1 ? true : undefined));
    // Three leases later the second runner still finds nothing to claim.
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await second.runNext()).toBe(false);
    release();
    expect(await running).toBe(true);
    expect(runs).toEqual([1]);
  });

  it('is run by one of two runners polling side by side, never by both', async () => {
    const job = defineJob<{ n: number }>('test.shared');
    const payloads = Array.from({ length: 30 }, (_, n) => ({ n }));
    await enqueue(job, payloads);
    const runs: Array<{ n: number; runner: string }> = [];
    const handlerOf = (name: string): JobHandler =>
      handleJob(job, async ({ n }) => {
        runs.push({ n, runner: name });
        await new Promise((resolve) => setTimeout(resolve, 5));
      });
    runner({ jobs: [handlerOf('a')] }).start();
    runner({ jobs: [handlerOf('b')] }).start();

    await waitFor(async () =>
      runs.length >= 30 && (await sql('select 1 from background_jobs where kind = ?', [job.kind])).length === 0 ? true : undefined,
    );
    expect(runs.map((run) => run.n).sort((a, b) => a - b)).toEqual(payloads.map(({ n }) => n));
    expect(new Set(runs.map((run) => run.runner))).toEqual(new Set(['a', 'b']));
  });

  it('that fails is retried with backoff, then marked failed after its last attempt', async () => {
    const job = defineJob<{ n: number }>('test.failing', { maxAttempts: 3 });
    const [id] = await enqueue(job, [{ n: 1 }]);
    const attempts: number[] = [];
    runner({
      jobs: [
        handleJob(job, async (_payload, { attempt }) => {
          attempts.push(attempt);
          throw new Error(`attempt ${attempt} failed`);
        }),
      ],
    }).start();

    const failed = await waitFor(async () => {
      const row = await rowOf(id!);
      return row?.state === 'failed' ? row : undefined;
    });
    expect(failed).toEqual({ state: 'failed', attempts: 3, last_error: 'attempt 3 failed' });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('that keeps killing its runner is marked failed rather than claimed forever', async () => {
    const job = defineJob<{ n: number }>('test.deadly', { maxAttempts: 2 });
    const [id] = await enqueue(job, [{ n: 1 }]);
    await sql(
      "update background_jobs set state = 'running', attempts = 2, locked_by = ?, locked_until = now() - interval '1 second' where id = ?",
      [randomUUID(), id],
    );
    const ran: number[] = [];
    expect(await runner({ jobs: [handleJob(job, async ({ n }) => void ran.push(n))] }).runNext()).toBe(true);
    expect(ran).toEqual([]);
    expect(await rowOf(id!)).toMatchObject({ state: 'failed', attempts: 3 });
  });
});

describe('a kind with a concurrency', () => {
  it('runs that many of its jobs at once, in slots of its own: a job that hangs holds up neither the others nor other kinds', async () => {
    const parallel = defineJob<{ n: number }>('test.parallel', { concurrency: 3 });
    const serial = defineJob<{ n: number }>('test.serial');
    await enqueue(parallel, [{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    await enqueue(serial, [{ n: 0 }]);
    let release = () => {};
    const hanging = new Promise<void>((resolve) => (release = resolve));
    let running = 0;
    let mostAtOnce = 0;
    const done: string[] = [];
    const jobs = runner({
      jobs: [
        handleJob(parallel, async ({ n }) => {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          // The first one hangs until the end; the others take a little while.
          await (n === 0 ? hanging : new Promise((resolve) => setTimeout(resolve, 30)));
          running -= 1;
          done.push(`parallel ${n}`);
        }),
        handleJob(serial, async ({ n }) => void done.push(`serial ${n}`)),
      ],
    });
    jobs.start();

    await waitFor(async () => (done.length === 5 ? true : undefined));
    expect(done).toEqual(expect.arrayContaining(['parallel 1', 'parallel 2', 'parallel 3', 'parallel 4', 'serial 0']));
    expect(mostAtOnce).toBe(3);
    release();
    await waitFor(async () => (done.includes('parallel 0') ? true : undefined));
  });

  it('must be a positive integer', () => {
    expect(() => defineJob('test.none-at-once', { concurrency: 0 })).toThrow('concurrency must be a positive integer');
  });
});

describe('stopping a runner', () => {
  it('waits for the job under way to end', async () => {
    const job = defineJob<{ n: number }>('test.stopping');
    const [id] = await enqueue(job, [{ n: 1 }]);
    let release = () => {};
    const holding = new Promise<void>((resolve) => (release = resolve));
    let finished = false;
    const jobs = runner({
      jobs: [
        handleJob(job, async () => {
          await holding;
          finished = true;
        }),
      ],
    });
    jobs.start();
    await waitFor(async () => ((await rowOf(id!))?.state === 'running' ? true : undefined));

    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
    expect(await rowOf(id!)).toBeUndefined();
  });

  it('gives up waiting after its timeout, leaving the job to the lease', async () => {
    const job = defineJob<{ n: number }>('test.stuck');
    const [id] = await enqueue(job, [{ n: 1 }]);
    let aborted = false;
    const jobs = runner({
      stopTimeoutMs: 100,
      jobs: [
        handleJob(
          job,
          (_payload, { signal }) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(void (aborted = true)))),
        ),
      ],
    });
    jobs.start();
    await waitFor(async () => ((await rowOf(id!))?.state === 'running' ? true : undefined));
    await jobs.stop();
    expect(aborted).toBe(true);
  });
});

describe('a schedule', () => {
  it('runs on one of two runners at a time, once per interval', async () => {
    let running = 0;
    let overlapped = false;
    const runs: string[] = [];
    const scheduleOf = (name: string): Schedule => ({
      name: 'test.sweep',
      intervalMs: 100,
      async run() {
        running += 1;
        if (running > 1) overlapped = true;
        runs.push(name);
        await new Promise((resolve) => setTimeout(resolve, 30));
        running -= 1;
      },
    });
    const first = runner({ schedules: [scheduleOf('a')] });
    const second = runner({ schedules: [scheduleOf('b')] });
    first.start();
    second.start();
    const since = Date.now();
    await waitFor(async () => (runs.length >= 5 ? true : undefined));
    const elapsed = Date.now() - since;
    await Promise.all([first.stop(), second.stop()]);

    expect(overlapped).toBe(false);
    // Each run starts at least 90 ms (the interval less its jitter) after the previous one ended.
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(elapsed / 120) + 1);
    expect(await sql('select kind from background_jobs where recurring')).toEqual([{ kind: 'test.sweep' }]);
  });

  it('runs again after a failed run, one interval later', async () => {
    let runs = 0;
    runner({
      schedules: [
        {
          name: 'test.flaky-sweep',
          intervalMs: 50,
          async run() {
            runs += 1;
            if (runs === 1) throw new Error('the database was away');
          },
        },
      ],
    }).start();
    await waitFor(async () => (runs >= 2 ? true : undefined));
    const [row] = await sql<{ state: string; last_error: string | null }>(
      "select state, last_error from background_jobs where kind = 'test.flaky-sweep'",
    );
    expect(row?.state).not.toBe('failed');
  });
});
