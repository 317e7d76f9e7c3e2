/**
 * `npm run bench:faults`: the faults of the reliability issue injected again, in turn, into a
 * platform of its own (identity, audit and the gateway on free ports, a Kafka broker and
 * databases of its own, the restart policy `npm start` uses), and one table of what happened
 * beside what the issue observed before the fixes:
 *
 * - `kill -9` of audit and of identity under read load: restarted? ready how long after? how many
 *   5xx meanwhile; when identity is back, how long until requests that need it succeed again;
 * - identity frozen (SIGSTOP) under load: the longest request, and whether reads of audit's routes
 *   by a token authenticated before keep working;
 * - 22+ PostgreSQL connections terminated under mixed load: 500s and 503s, and the event latency
 *   (a write's 201 to its audit event) before and after;
 * - the broker stopped under write load: writes answered, events lost or duplicated, the longest
 *   transaction open meanwhile, and how long after the broker's return every event arrived;
 * - fuzzed bad bodies (charsets, NUL bytes, thousands of form fields, broken JSON and encodings): 5xx answers;
 * - SIGTERM to the gateway under keep-alive load: requests reset, readiness, time to exit.
 *
 * Figures are measured on the machine at hand; a busy machine stretches the times. Settings
 * (environment): BENCH_FAULT_FREEZE_S (20), BENCH_FAULT_BROKER_DOWN_S (45), BENCH_FAULT_FUZZ_REQUESTS
 * (2000), BENCH_LABEL, DATABASE_URL (a PostgreSQL server to use instead of a local one).
 */
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import pg from 'pg';
import { z } from 'zod';
import { loadConfig } from '@platform/config';
import { databaseUrlFor, freePorts, startKafkaBroker, type KafkaBroker, type RestartingProcess } from '@platform/devstack';
import { startBenchPlatform } from './bench-platform.ts';
import { percentile } from './open-loop.ts';

const config = loadConfig({
  BENCH_FAULT_FREEZE_S: z.coerce.number().positive().default(20),
  BENCH_FAULT_BROKER_DOWN_S: z.coerce.number().positive().default(45),
  BENCH_FAULT_FUZZ_REQUESTS: z.coerce.number().int().positive().default(2000),
  BENCH_LABEL: z
    .string()
    .regex(/^[\w.-]+$/)
    .default('run'),
  DATABASE_URL: z.url().optional(),
});

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(REPO_ROOT, 'bench', 'results');
const say = (line = '') => process.stdout.write(`${line}\n`);
const now = () => performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One row of the table: the issue's figure beside today's, with the measurements behind it. */
interface FaultRow {
  fault: string;
  issue: string;
  now: string;
  figures: Record<string, unknown>;
}

interface Answer {
  status: number;
  ms: number;
  body: unknown;
  /** Set when no HTTP answer came (status 0). */
  error?: string;
}

async function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<Answer> {
  const started = now();
  try {
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      ...(init.headers ? { headers: init.headers } : {}),
      ...(init.body === undefined ? {} : { body: init.body }),
      signal: AbortSignal.timeout(init.timeoutMs ?? 60_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    return { status: response.status, ms: now() - started, body };
  } catch (error) {
    return { status: 0, ms: now() - started, body: undefined, error: String((error as Error).cause ?? error) };
  }
}

/** Polls `probe` until it yields a value; throws after `timeoutMs`. */
async function until<Value>(what: string, probe: () => Promise<Value | undefined>, timeoutMs = 180_000, intervalMs = 50): Promise<Value> {
  const deadline = now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(intervalMs);
  }
}

interface LoadRecord {
  client: string;
  /** When the request was sent and answered, in ms on the performance clock. */
  sentAt: number;
  answeredAt: number;
  status: number;
}

/**
 * Clients that each send one request after another until stopped, at most one per `paceMs` (a
 * client answered at once by an open circuit would otherwise spin).
 */
function startLoad(clients: Array<{ name: string; request: () => Promise<Answer> }>, paceMs = 50) {
  const records: LoadRecord[] = [];
  let stopped = false;
  const loops = clients.map(async ({ name, request }) => {
    while (!stopped) {
      const sentAt = now();
      const answer = await request();
      records.push({ client: name, sentAt, answeredAt: now(), status: answer.status });
      const wait = sentAt + paceMs - now();
      if (wait > 0) await sleep(wait);
    }
  });
  return {
    records,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return records;
    },
  };
}

function countStatuses(records: Array<{ status: number }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of records) {
    const key = status === 0 ? 'no answer' : String(status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const describeCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([status, count]) => `${count}x ${status}`)
    .join(', ');

// ---------------------------------------------------------------------------------------------

const rows: FaultRow[] = [];
const restarts: string[] = [];
const [brokerPort = 0, controllerPort = 0] = await freePorts(2);
const brokerOptions = { dataDir: await mkdtemp(path.join(os.tmpdir(), 'faults-kafka-')), port: brokerPort, controllerPort };
let broker: KafkaBroker | undefined = await startKafkaBroker(brokerOptions);
say(`Starting identity, audit and the gateway on a broker of their own (${broker.brokers.join(',')})...`);
const bench = await startBenchPlatform({
  label: `faults_${config.BENCH_LABEL}`,
  services: ['identity', 'audit'],
  databaseUrl: config.DATABASE_URL,
  kafkaBrokers: broker.brokers,
  onRestart: (message) => restarts.push(message),
});
const { platform } = bench;
const admin = new pg.Client({ connectionString: databaseUrlFor(bench.postgresUrl, 'postgres') });
await admin.connect();
/** Where this benchmark reads audit's events; spared when the services' connections are terminated. */
const BENCH_CONNECTION = 'bench-faults';
const auditDb = new pg.Client({
  connectionString: databaseUrlFor(bench.postgresUrl, `${bench.databasePrefix}audit`),
  application_name: BENCH_CONNECTION,
});
await auditDb.connect();
const identityDb = new pg.Client({
  connectionString: databaseUrlFor(bench.postgresUrl, `${bench.databasePrefix}identity`),
  application_name: BENCH_CONNECTION,
});
await identityDb.connect();

try {
  const asRoot = { 'PRIVATE-TOKEN': bench.rootToken, 'Content-Type': 'application/json' };
  const api = (pathAndQuery: string) => `${platform.url}/api/v4${pathAndQuery}`;
  const processOf = (name: string): RestartingProcess => {
    const child = platform.processes[name];
    if (!child) throw new Error(`no ${name} process`);
    return child;
  };
  const readiness = async (service: string) => {
    const answer = await send(`${platform.serviceUrls[service]}/-/readiness`, { timeoutMs: 1000 });
    return answer.status === 200 ? (answer.body as { checks?: Record<string, string> }) : undefined;
  };
  let userSequence = 0;
  const createUser = async (prefix: string) => {
    userSequence += 1;
    const username = `${prefix}-${userSequence}`;
    return send(api('/users'), {
      method: 'POST',
      headers: asRoot,
      body: JSON.stringify({ username, name: username, email: `${username}@example.com`, password: 'a-long-enough-password' }),
    });
  };
  const createdId = (answer: Answer) => (answer.status === 201 ? (answer.body as { id: number }).id : undefined);
  const userCreatedEvents = async (ids: number[]): Promise<Map<number, number>> => {
    const found = await auditDb.query<{ entity_id: number; count: number }>(
      `select entity_id, count(*)::int as count from audit_events
       where entity_type = 'User' and event_name = 'user_created' and entity_id = any($1::int[]) group by entity_id`,
      [ids],
    );
    return new Map(found.rows.map((row) => [row.entity_id, row.count]));
  };
  /** From a user's 201 to its audit event in audit's database, for `count` users one after another. */
  const eventLatencies = async (count: number): Promise<number[]> => {
    const latencies: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const id = createdId(await createUser('latency'));
      if (id === undefined) continue;
      const answeredAt = now();
      await until('an audit event', async () => ((await userCreatedEvents([id])).has(id) ? true : undefined), 60_000, 5);
      latencies.push(now() - answeredAt);
    }
    return latencies.sort((a, b) => a - b);
  };
  const tokenFor = async (userId: number, name: string) => {
    const answer = await send(api(`/users/${userId}/personal_access_tokens`), {
      method: 'POST',
      headers: asRoot,
      body: JSON.stringify({ name, scopes: ['api'] }),
    });
    if (answer.status !== 201) throw new Error(`a token: ${answer.status} ${JSON.stringify(answer.body)}`);
    return (answer.body as { token: string }).token;
  };

  // A user who reads their own activity (audit's GET /events, which asks identity whether they may
  // see the project), with a project created through identity.
  await until('the gateway following identity', async () => {
    const answer = await send(`${platform.url}/-/readiness`);
    return (answer.body as { authInvalidation?: string }).authInvalidation === 'live' ? true : undefined;
  });
  const readerId = createdId(await createUser('reader'));
  if (readerId === undefined) throw new Error('could not create the reader');
  const reader = { 'PRIVATE-TOKEN': await tokenFor(readerId, 'reader'), 'Content-Type': 'application/json' };
  const project = await send(api('/projects'), {
    method: 'POST',
    headers: reader,
    body: JSON.stringify({ name: 'Faults', path: 'faults' }),
  });
  if (project.status !== 201) throw new Error(`a project: ${project.status}`);
  await until("the reader's activity", async () => {
    const events = await send(api('/events'), { headers: reader });
    return events.status === 200 && Array.isArray(events.body) && events.body.length > 0 ? true : undefined;
  });
  const readAudit = () => send(api('/audit_events?per_page=1'), { headers: asRoot, timeoutMs: 60_000 });
  const readActivity = () => send(api('/events'), { headers: reader, timeoutMs: 60_000 });
  const readUser = () => send(api('/user'), { headers: asRoot, timeoutMs: 60_000 });

  // --- kill -9 audit under reads: restarted, and how long its routes fail ---------------------------
  {
    say('kill -9 audit under read load...');
    const audit = processOf('audit');
    const load = startLoad([
      { name: 'audit_events', request: readAudit },
      { name: 'audit_events', request: readAudit },
      { name: 'events', request: readActivity },
    ]);
    await sleep(1000);
    const killedPid = audit.pid();
    const killedAt = now();
    process.kill(killedPid, 'SIGKILL');
    const first = await until('audit ready again', async () => (audit.pid() !== killedPid ? readiness('audit') : undefined));
    const readyAfter = now() - killedAt;
    const consumerAtReady = first.checks?.consumer ?? 'not reported';
    await until('audit consumer running', async () => ((await readiness('audit'))?.checks?.consumer === 'running' ? true : undefined));
    const consumerJoinedAfter = now() - killedAt;
    await sleep(2000);
    const records = (await load.stop()).filter((record) => record.sentAt >= killedAt);
    const failed = records.filter((record) => record.status !== 200);
    const lastFailure = Math.max(killedAt, ...failed.map((record) => record.answeredAt));
    const restarted = restarts.some((message) => message.startsWith('audit exited (signal SIGKILL)'));
    rows.push({
      fault: 'kill -9 audit',
      issue: 'nothing restarts it',
      now: `${restarted ? 'restarted' : 'NOT restarted'}, ready ${seconds(readyAfter)} after the kill`,
      figures: { restarted, readyAfterMs: Math.round(readyAfter) },
    });
    rows.push({
      fault: 'audit restarted',
      issue: '10 s of 502 before it listens; readiness checks only the database',
      now:
        `failures for ${seconds(lastFailure - killedAt)} from the kill (${describeCounts(countStatuses(failed)) || 'none'} of ${records.length}); ` +
        `ready with consumer "${consumerAtReady}", joined ${seconds(consumerJoinedAfter - readyAfter)} later`,
      figures: {
        requests: records.length,
        statuses: countStatuses(records),
        failingForMs: Math.round(lastFailure - killedAt),
        readyAfterMs: Math.round(readyAfter),
        consumerAtReady,
        consumerRunningAfterKillMs: Math.round(consumerJoinedAfter),
      },
    });
  }

  // --- kill -9 identity: restarted, and how soon requests that need it succeed again ---------------
  {
    say('kill -9 identity under read load...');
    const identity = processOf('identity');
    // A token the gateway has never seen must be authenticated by identity over gRPC.
    const unseen = { 'PRIVATE-TOKEN': await tokenFor(readerId, 'unseen') };
    const load = startLoad([
      { name: 'user', request: readUser },
      { name: 'audit_events', request: readAudit },
      { name: 'events', request: readActivity },
    ]);
    await sleep(1000);
    const killedPid = identity.pid();
    const killedAt = now();
    process.kill(killedPid, 'SIGKILL');
    await until('identity ready again', async () => (identity.pid() !== killedPid ? readiness('identity') : undefined), 180_000, 20);
    const readyAt = now();
    // Each needs identity another way: its HTTP API through the gateway, the gateway's gRPC
    // authentication of an unseen token, audit's gRPC confirmation of the administrator.
    const probes = {
      'GET /user (identity over HTTP)': readUser,
      'unseen token (gateway to identity over gRPC)': () => send(api('/events'), { headers: unseen }),
      'GET /audit_events (audit to identity over gRPC)': readAudit,
    };
    const backAfter = Object.fromEntries(
      await Promise.all(
        Object.entries(probes).map(async ([name, probe]) => {
          await until(name, async () => ((await probe()).status === 200 ? true : undefined), 120_000, 20);
          return [name, Math.round(now() - readyAt)] as const;
        }),
      ),
    );
    await sleep(1000);
    const records = (await load.stop()).filter((record) => record.sentAt >= killedAt);
    const restarted = restarts.some((message) => message.startsWith('identity exited (signal SIGKILL)'));
    const activity = records.filter((record) => record.client === 'events' && record.answeredAt < readyAt);
    rows.push({
      fault: 'kill -9 identity',
      issue: 'nothing restarts it',
      now: `${restarted ? 'restarted' : 'NOT restarted'}, ready ${seconds(readyAt - killedAt)} after the kill`,
      figures: { restarted, readyAfterMs: Math.round(readyAt - killedAt), statuses: countStatuses(records) },
    });
    rows.push({
      fault: 'identity back (after kill -9)',
      issue: 'requests failed for 3.8-11.9 s more while /-/readiness said 200',
      now: `first success ${Math.max(...Object.values(backAfter))} ms after its readiness 200 (slowest of ${Object.keys(backAfter).length} paths)`,
      figures: { msAfterReadiness: backAfter, activityReadsWhileDown: countStatuses(activity) },
    });
  }

  // --- identity frozen: every request bounded; reads of audit keep working ------------------------
  {
    const freezeMs = config.BENCH_FAULT_FREEZE_S * 1000;
    say(`SIGSTOP identity for ${config.BENCH_FAULT_FREEZE_S} s under load...`);
    const identity = processOf('identity');
    // Past the gateway's freshness (10 s by default): these tokens are checked with identity again during the freeze.
    const load = startLoad([
      { name: 'user', request: readUser },
      { name: 'user', request: readUser },
      { name: 'events', request: readActivity },
      { name: 'events', request: readActivity },
      { name: 'audit_events', request: readAudit },
    ]);
    await sleep(1000);
    const frozenAt = now();
    process.kill(identity.pid(), 'SIGSTOP');
    await sleep(freezeMs);
    process.kill(identity.pid(), 'SIGCONT');
    const resumedAt = now();
    await until('identity answering', async () => ((await readUser()).status === 200 ? true : undefined), 120_000, 20);
    const answeringAfter = now() - resumedAt;
    await sleep(1000);
    // Every request that was waiting at some moment of the freeze, those sent before it included.
    const records = (await load.stop()).filter((record) => record.answeredAt >= frozenAt && record.sentAt < resumedAt);
    const of = (client: string) => records.filter((record) => record.client === client);
    const longest = Math.max(0, ...records.map((record) => record.answeredAt - record.sentAt));
    const activity = of('events');
    const activityOk = activity.filter((record) => record.status === 200).length;
    rows.push({
      fault: `identity frozen (SIGSTOP) ${config.BENCH_FAULT_FREEZE_S} s`,
      issue: 'a request through the gateway hung 20.0 s',
      now: `longest request ${seconds(longest)}; identity's routes: ${describeCounts(countStatuses(of('user')))}; answering ${answeringAfter.toFixed(0)} ms after SIGCONT`,
      figures: {
        longestMs: Math.round(longest),
        identityRoutes: countStatuses(of('user')),
        answeringAfterResumeMs: Math.round(answeringAfter),
      },
    });
    rows.push({
      fault: 'identity down: reads of audit',
      issue: "every route fails, audit's included (503 after the auth cache expires)",
      now:
        `GET /events (token seen before): ${activityOk}/${activity.length} answered 200; ` +
        `administrators' GET /audit_events: ${describeCounts(countStatuses(of('audit_events')))} (confirms the administrator with identity)`,
      figures: { activity: countStatuses(activity), administratorList: countStatuses(of('audit_events')) },
    });
  }

  // --- database connections terminated under load --------------------------------------------------
  {
    say('terminating every database connection of identity and audit under load...');
    const latencyBefore = await eventLatencies(10);
    let group = 0;
    const createGroup = () => {
      group += 1;
      return send(api('/groups'), {
        method: 'POST',
        headers: asRoot,
        body: JSON.stringify({ name: `cut-${group}`, path: `cut-${group}` }),
      });
    };
    const load = startLoad(
      [
        ...Array.from({ length: 3 }, () => ({ name: 'users', request: () => send(api('/users?per_page=5'), { headers: asRoot }) })),
        { name: 'audit_events', request: readAudit },
        { name: 'events', request: readActivity },
        { name: 'groups', request: createGroup },
        { name: 'users', request: () => createUser('cut') },
      ],
      20,
    );
    await sleep(3000);
    const terminated = await admin.query<{ count: number }>(
      `select count(*)::int as count from (select pg_terminate_backend(pid) from pg_stat_activity
       where datname = any($1::text[]) and application_name <> $2) as cut`,
      [[`${bench.databasePrefix}identity`, `${bench.databasePrefix}audit`], BENCH_CONNECTION],
    );
    await sleep(5000);
    const records = await load.stop();
    const latencyAfter = await eventLatencies(10);
    const statuses = countStatuses(records);
    const p50 = (values: number[]) => Math.round(percentile(values, 0.5));
    rows.push({
      fault: `${terminated.rows[0]?.count ?? 0} PostgreSQL connections terminated`,
      issue: '2 of 961 requests answered 500; event latency p50 10 ms -> 551 ms (LISTEN lost)',
      now: `${statuses['500'] ?? 0} of ${records.length} answered 500, ${statuses['503'] ?? 0} answered 503; event latency p50 ${p50(latencyBefore)} ms -> ${p50(latencyAfter)} ms`,
      figures: {
        terminated: terminated.rows[0]?.count ?? 0,
        requests: records.length,
        statuses,
        eventLatencyBeforeMs: latencyBefore.map(Math.round),
        eventLatencyAfterMs: latencyAfter.map(Math.round),
      },
    });
  }

  // --- the broker down under write load ------------------------------------------------------------
  {
    const downMs = config.BENCH_FAULT_BROKER_DOWN_S * 1000;
    say(`stopping the broker for ${config.BENCH_FAULT_BROKER_DOWN_S} s under write load...`);
    const auditRestartsBefore = processOf('audit').restarts();
    await broker.stop();
    broker = undefined;
    const stoppedAt = now();
    const created: number[] = [];
    const statuses: number[] = [];
    const writers = Array.from({ length: 3 }, async () => {
      while (now() - stoppedAt < downMs) {
        const answer = await createUser('outage');
        statuses.push(answer.status);
        const id = createdId(answer);
        if (id !== undefined) created.push(id);
        await sleep(400);
      }
    });
    // The longest transaction open in either database meanwhile: the relay must hold none across Kafka calls.
    let longestTransactionS = 0;
    const sampling = (async () => {
      while (now() - stoppedAt < downMs) {
        const open = await admin.query<{ age: number }>(
          `select coalesce(max(extract(epoch from now() - xact_start)), 0)::float as age from pg_stat_activity
           where datname = any($1::text[]) and xact_start is not null and pid <> pg_backend_pid()`,
          [[`${bench.databasePrefix}identity`, `${bench.databasePrefix}audit`]],
        );
        longestTransactionS = Math.max(longestTransactionS, open.rows[0]?.age ?? 0);
        await sleep(500);
      }
    })();
    await Promise.all([...writers, sampling]);
    broker = await startKafkaBroker(brokerOptions);
    const backAt = now();
    say(`  the broker is back; waiting for ${created.length} events...`);
    // Identity's relay has published everything it kept meanwhile.
    const relayDrained = until(
      "identity's outbox published",
      async () => {
        const pending = await identityDb.query<{ count: number }>('select count(*)::int as count from outbox where published_at is null');
        return pending.rows[0]?.count === 0 ? now() - backAt : undefined;
      },
      240_000,
      100,
    );
    await until(
      'every event in audit',
      async () => ((await userCreatedEvents(created)).size === created.length ? true : undefined),
      240_000,
      100,
    );
    const drainedAfter = now() - backAt;
    const relayDrainedAfter = await relayDrained;
    await until('audit consumer running', async () => ((await readiness('audit'))?.checks?.consumer === 'running' ? true : undefined));
    const consumerRunningAfter = now() - backAt;
    await sleep(2000);
    const counts = await userCreatedEvents(created);
    const duplicated = [...counts.values()].filter((count) => count > 1).length;
    const lost = created.length - counts.size;
    const accepted = statuses.filter((status) => status === 201).length;
    const auditRestarts = processOf('audit').restarts() - auditRestartsBefore;
    rows.push({
      fault: `broker down ${config.BENCH_FAULT_BROKER_DOWN_S} s under writes`,
      issue:
        '300/300 writes, events exactly once; relay transaction open 43-92 s; drain up to 16 s after the broker returned; consumer crashed twice, 30 s to restart',
      now:
        `${accepted}/${statuses.length} writes, ${lost} events lost, ${duplicated} duplicated; longest transaction ${longestTransactionS.toFixed(1)} s; ` +
        `outbox published ${seconds(relayDrainedAfter)} and every event in audit ${seconds(drainedAfter)} after the broker was back ` +
        `(audit's consumer rejoined its group ${seconds(consumerRunningAfter)} after); audit restarted ${auditRestarts}x`,
      figures: {
        writes: statuses.length,
        accepted,
        lost,
        duplicated,
        longestTransactionS: Math.round(longestTransactionS * 10) / 10,
        relayDrainedAfterBrokerBackMs: Math.round(relayDrainedAfter),
        drainedAfterBrokerBackMs: Math.round(drainedAfter),
        consumerRunningAfterBrokerBackMs: Math.round(consumerRunningAfter),
        auditRestarts,
      },
    });
  }

  // --- bad bodies ------------------------------------------------------------------------------------
  {
    say(`${config.BENCH_FAULT_FUZZ_REQUESTS} fuzzed requests with bad bodies, parameters and paths...`);
    const fuzzed = fc.sample(badRequest(readerId), { seed: 20_261_124, numRuns: config.BENCH_FAULT_FUZZ_REQUESTS });
    const answers: Array<{ status: number; what: string }> = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < fuzzed.length) {
          const item = fuzzed[next] as BadRequest;
          next += 1;
          const answer = await sendRaw(platform.url, item, bench.rootToken);
          answers.push({ status: answer, what: `${item.method} ${item.path.slice(0, 80)} (${item.kind})` });
        }
      }),
    );
    const failed = answers.filter((answer) => answer.status >= 500 || answer.status === 0);
    rows.push({
      fault: 'bad bodies',
      issue: '34 of 2,000 fuzzed requests answered 500',
      now: `${failed.length} of ${answers.length} answered 5xx or nothing (${describeCounts(countStatuses(answers))})`,
      figures: { requests: answers.length, statuses: countStatuses(answers), failures: failed.slice(0, 20) },
    });
  }

  // --- SIGTERM to the gateway under keep-alive load (last: it stops the gateway) ---------------------
  {
    say('SIGTERM to the gateway under keep-alive load...');
    const gateway = processOf('gateway');
    const result = await drainUnderLoad(platform.url, bench.rootToken, gateway);
    rows.push({
      fault: 'SIGTERM under load',
      issue: '18 of 42 in-flight requests reset; keep-alive clients served 3.9 s with readiness 200; killed by the 10 s grace timer',
      now:
        `${result.reset} of ${result.inFlightAtSignal} in flight reset (${result.failed.length} failures in all); readiness 503 after ${result.readiness503AfterMs} ms; ` +
        `${result.closedAnswers}/${result.answersAfterSignal} answers after it said Connection: close; exited by itself after ${seconds(result.exitAfterMs)}`,
      figures: result,
    });
  }
} finally {
  await auditDb.end().catch(() => undefined);
  await identityDb.end().catch(() => undefined);
  await admin.end().catch(() => undefined);
  await bench.stop();
  await broker?.stop();
  await rm(brokerOptions.dataDir, { recursive: true, force: true });
}

say();
const widths = [38, 60];
const line = (cells: string[]) =>
  `| ${cells.map((cell, index) => (index < widths.length ? cell.padEnd(widths[index] ?? 0) : cell)).join(' | ')} |`;
say(line(['fault', "issue's figure", 'now']));
say(line(['---', '---', '---']));
for (const row of rows) say(line([row.fault, row.issue, row.now]));
mkdirSync(RESULTS, { recursive: true });
const file = path.join(RESULTS, `${new Date().toISOString().replace(/[:.]/g, '-')}-faults-${config.BENCH_LABEL}.json`);
writeFileSync(file, `${JSON.stringify({ cpus: os.cpus().length, loadAverage: os.loadavg(), restarts, rows }, null, 2)}\n`);
say(`\nWrote ${path.relative(REPO_ROOT, file)}.`);

// ---------------------------------------------------------------------------------------------------

interface BadRequest {
  kind: string;
  method: string;
  path: string;
  contentType?: string;
  body?: string | Buffer;
}

/** Requests no handler may answer 500: the causes the issue found, and their neighbours. */
function badRequest(userId: number): fc.Arbitrary<BadRequest> {
  const writes = fc.constantFrom(
    { method: 'POST', path: '/api/v4/users' },
    { method: 'POST', path: '/api/v4/groups' },
    { method: 'POST', path: '/api/v4/projects' },
    { method: 'PUT', path: `/api/v4/users/${userId}` },
    { method: 'POST', path: `/api/v4/users/${userId}/personal_access_tokens` },
  );
  const nasty = fc.oneof(
    fc.string().map((text) => `${text}\u0000${text}`),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer(),
    fc.double(),
    fc.constantFrom('', ' ', 'null', 'true', '-1', '1e309', 'x'.repeat(70_000)),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  );
  const fields = fc.dictionary(fc.constantFrom('username', 'name', 'email', 'password', 'path', 'scopes', 'visibility', 'admin'), nasty, {
    minKeys: 1,
  });
  const json = fc.record({ target: writes, fields }).map(({ target, fields: values }) => ({
    kind: 'json',
    ...target,
    contentType: 'application/json',
    body: JSON.stringify(values),
  }));
  const brokenJson = fc.record({ target: writes, fields }).map(({ target, fields: values }) => {
    const text = JSON.stringify(values);
    return { kind: 'broken json', ...target, contentType: 'application/json', body: text.slice(0, Math.max(1, text.length - 2)) };
  });
  const manyFields = fc.record({ target: writes, count: fc.integer({ min: 1001, max: 4000 }) }).map(({ target, count }) => ({
    kind: 'form with many fields',
    ...target,
    contentType: 'application/x-www-form-urlencoded',
    body: Array.from({ length: count }, (_, index) => `f${index}=x`).join('&'),
  }));
  const charset = fc
    .record({ target: writes, charset: fc.constantFrom('latin1', 'iso-8859-1', 'utf-16', 'utf-7', 'nonsense'), form: fc.boolean() })
    .map(({ target, charset: name, form }) => ({
      kind: 'charset',
      ...target,
      contentType: `${form ? 'application/x-www-form-urlencoded' : 'application/json'}; charset=${name}`,
      body: form ? 'name=caf%E9&path=cafe' : '{"name":"café","path":"cafe"}',
    }));
  const badEncoding = fc
    .record({ target: writes, bytes: fc.constantFrom('%E0%A4%A', '%FF%FE', '%C0%AF', '%', '%ZZ', '%00') })
    .map(({ target, bytes }) => ({
      kind: 'bad form encoding',
      ...target,
      contentType: 'application/x-www-form-urlencoded',
      body: `name=a${bytes}b&path=a${bytes}b&username=u${bytes}`,
    }));
  const invalidUtf8 = writes.map((target) => ({
    kind: 'invalid UTF-8 JSON',
    ...target,
    contentType: 'application/json',
    body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('","path":"x"}')]),
  }));
  const deep = fc
    .record({ target: writes, depth: fc.integer({ min: 20, max: 3000 }), form: fc.boolean() })
    .map(({ target, depth, form }) => ({
      kind: 'deep nesting',
      ...target,
      contentType: form ? 'application/x-www-form-urlencoded' : 'application/json',
      body: form ? `name${'[a]'.repeat(depth)}=1` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
    }));
  const nulInPath = fc
    .constantFrom(
      `/api/v4/users/${userId}%00`,
      '/api/v4/groups/a%00b',
      '/api/v4/projects/faults%00',
      '/api/v4/users?search=a%00b',
      '/api/v4/users?username=%00',
      '/api/v4/groups?search=%00',
      '/api/v4/audit_events?entity_type=User%00',
      '/api/v4/events?action=%00',
      '/api/v4/projects/%E0%A4%A',
    )
    .map((pathAndQuery) => ({ kind: 'NUL or bad encoding in the URL', method: 'GET', path: pathAndQuery }));
  const multipart = writes.map((target) => ({
    kind: 'broken multipart',
    ...target,
    contentType: 'multipart/form-data; boundary=XYZ',
    body: '--XYZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nbroken',
  }));
  return fc.oneof(json, json, brokenJson, manyFields, charset, badEncoding, invalidUtf8, deep, nulInPath, multipart);
}

/** Sends as given (fetch would refuse some of these), as the administrator; resolves with the status, 0 without an answer. */
function sendRaw(baseUrl: string, item: BadRequest, token: string): Promise<number> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: item.method,
        path: item.path,
        headers: {
          'PRIVATE-TOKEN': token,
          ...(item.contentType ? { 'Content-Type': item.contentType } : {}),
          ...(item.body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(item.body)) }),
        },
        timeout: 60_000,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(0));
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
    request.end(item.body);
  });
}

/**
 * Clients on kept-alive connections that never pause (nothing in front takes the gateway out of
 * rotation), then SIGTERM: requests the gateway accepted must be answered, readiness must turn
 * 503 at once, answers after the signal must close their connections, and the gateway must exit
 * by itself long before the kill timer.
 */
async function drainUnderLoad(baseUrl: string, token: string, gateway: RestartingProcess) {
  const KILL_AFTER_MS = 30_000;
  const url = new URL(baseUrl);
  let signalledAt = Number.POSITIVE_INFINITY;
  let inFlight = 0;
  let answersAfterSignal = 0;
  let closedAnswers = 0;
  let refused = 0;
  let reset = 0;
  const failed: string[] = [];
  let done = false;
  const sendOn = (agent: http.Agent, method: string, pathAndQuery: string, body?: string) =>
    new Promise<void>((resolve) => {
      inFlight += 1;
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path: pathAndQuery,
          agent,
          headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
          timeout: 60_000,
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            inFlight -= 1;
            if (now() >= signalledAt) {
              answersAfterSignal += 1;
              if (response.headers.connection === 'close') closedAnswers += 1;
            }
            if ((response.statusCode ?? 0) >= 500) failed.push(`${method} ${pathAndQuery}: ${response.statusCode}`);
            resolve();
          });
        },
      );
      request.on('timeout', () => request.destroy(Object.assign(new Error('hung'), { code: 'HUNG' })));
      request.on('error', (error: NodeJS.ErrnoException) => {
        inFlight -= 1;
        // Never accepted (the listener had closed, or a new connection was never taken): nothing was sent to the gateway.
        if (error.code === 'ECONNREFUSED' || (error.code === 'ECONNRESET' && !request.reusedSocket)) {
          refused += 1;
          void sleep(20).then(() => resolve());
          return;
        }
        reset += 1;
        failed.push(
          `${method} ${pathAndQuery}: ${error.code ?? error.message}${request.reusedSocket ? ' on a kept-alive connection' : ''}`,
        );
        resolve();
      });
      request.end(body);
    });
  let answered = 0;
  const clients = Array.from({ length: 8 }, async (_, index) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let round = 0; !done; round += 1) {
      if (index === 0) {
        await sendOn(agent, 'POST', '/api/v4/groups', JSON.stringify({ name: `drain-${round}`, path: `drain-${round}` }));
      } else {
        await sendOn(agent, 'GET', index % 2 === 0 ? '/api/v4/user' : '/api/v4/audit_events?per_page=1');
      }
      answered += 1;
    }
    agent.destroy();
  });
  await until('requests flowing', async () => (answered >= 50 ? true : undefined));
  signalledAt = now();
  const inFlightAtSignal = inFlight;
  // stop() sends SIGTERM before its first await.
  const exited = gateway.stop(KILL_AFTER_MS).then(() => now() - signalledAt);
  const readiness503After = await until(
    'readiness 503',
    async () => {
      const answer = await send(`${baseUrl}/-/readiness`, { timeoutMs: 2000 });
      return answer.status === 503 || answer.status === 0 ? now() - signalledAt : undefined;
    },
    KILL_AFTER_MS,
    5,
  );
  const exitAfterMs = await exited;
  done = true;
  await Promise.all(clients);
  return {
    inFlightAtSignal,
    reset,
    refusedAfterClose: refused,
    failed,
    readiness503AfterMs: Math.round(readiness503After),
    answersAfterSignal,
    closedAnswers,
    exitAfterMs: Math.round(exitAfterMs),
    killTimerMs: KILL_AFTER_MS,
  };
}
