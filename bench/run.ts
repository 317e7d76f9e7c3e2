/**
 * `npm run bench`: the platform's load test, measured from outside on the machine that runs
 * everything (PostgreSQL, Kafka, the services, the gateway and this generator).
 *
 * Seeds identity's database (see seed.ts) and, when review runs, the merge requests of the
 * sample project (seed-merge-requests.ts), then for each endpoint of the mix and each caller
 * (root, and a non-administrator with memberships) measures, side by side in the same run:
 * a bare express server answering the same body from memory (the ceiling), the owning service
 * called directly with a signed caller header, and the gateway. Each is driven open-loop at a
 * constant arrival rate (open-loop.ts) at 200 req/s and at the endpoint's target rate, judged
 * as the GitLab Performance Tool judges (>= 0.8 of the rate, > 99.9% 2xx, p90 within target),
 * and closed-loop with autocannon for maximum throughput. Prints each process's CPU while idle, a
 * table, the ratios and each service's resident memory at the end of the load and 15 s later, and
 * writes everything as JSON to bench/results/.
 *
 * Settings (environment): BENCH_DURATION seconds per open-loop run (5), BENCH_CLOSED_DURATION
 * seconds per closed-loop run (5), BENCH_CONNECTIONS for closed loop (32), BENCH_RATES
 * (`200,target`), BENCH_ENDPOINTS (names or substrings, comma-separated), BENCH_CALLERS
 * (`root,member`), BENCH_ROWS (seed this many users and projects, e.g. 1000000), BENCH_LABEL
 * (in the results file name), BENCH_BASELINE (a results file to print p90 and throughput ratios
 * against), BENCH_PROFILE=1 (services and the gateway write `node --cpu-prof` profiles to
 * bench/results/profiles/), BENCH_SERVICES (start only these, e.g. `identity` to measure the
 * gateway's hop in front of one service on a shared machine; every service unless given),
 * BENCH_COST_SECONDS (2) seconds per window of the CPU per request line, measured one request at
 * a time and then BENCH_COST_CONNECTIONS (8) at a time (0 seconds: no CPU line),
 * DATABASE_URL and KAFKA_BROKERS (use these instead of local ones), and `<SERVICE>_PROCESSES` (as
 * `npm start` reads it: IDENTITY_PROCESSES=3 runs three identity processes; CPU per request and
 * resident memory are then reported per process, `services/identity-2`...).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { z } from 'zod';
import { CALLER_HEADER, signCaller, type Caller } from '@platform/auth';
import { loadConfig, listFromEnv } from '@platform/config';
import { databaseUrlFor, type RunningPlatform } from '@platform/devstack';
import { startBenchPlatform } from './bench-platform.ts';
import { startBareServer } from './bare-ceiling.ts';
import { openLoop, verdict, type OpenLoopResult } from './open-loop.ts';
import { largeSize, seed, STANDARD_SIZE, type SeededData } from './seed.ts';
import { seedMergeRequests } from './seed-merge-requests.ts';
import { cpuMs } from './process-cpu.ts';

const config = loadConfig({
  BENCH_DURATION: z.coerce.number().positive().default(5),
  BENCH_CLOSED_DURATION: z.coerce.number().positive().default(5),
  BENCH_CONNECTIONS: z.coerce.number().int().positive().default(32),
  BENCH_RATES: listFromEnv.default(['200', 'target']),
  BENCH_ENDPOINTS: listFromEnv.optional(),
  BENCH_CALLERS: listFromEnv.default(['root', 'member']),
  BENCH_ROWS: z.coerce.number().int().positive().optional(),
  BENCH_LABEL: z
    .string()
    .regex(/^[\w.-]+$/)
    .default('run'),
  BENCH_BASELINE: z.string().optional(),
  BENCH_PROFILE: z.enum(['0', '1']).default('0'),
  BENCH_SERVICES: listFromEnv.optional(),
  BENCH_COST_SECONDS: z.coerce.number().min(0).default(2),
  BENCH_COST_CONNECTIONS: z.coerce.number().int().positive().default(8),
  DATABASE_URL: z.url().optional(),
  KAFKA_BROKERS: listFromEnv.optional(),
});

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
/** Resident memory every service (and the gateway) must stay under after the bench. */
const RSS_TARGET_MB = 200;
/** How long the platform idles after the last load before its memory is read again. */
// Longer than the services' quiet period before they give memory back (libs/service's idle memory release).
const RSS_SETTLE_MS = 15_000;
/** How long each process's CPU is read with nothing sent, before the load. */
const IDLE_CPU_SECONDS = 5;
const RESULTS = path.join(REPO_ROOT, 'bench', 'results');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const profileDir = path.join(RESULTS, 'profiles', `${stamp}-${config.BENCH_LABEL}`);

interface Endpoint {
  name: string;
  path: string;
  service: string;
  /** The rate it must pass at, and the p90 it must stay within (GitLab Performance Tool style). */
  targetRate: number;
  p90TargetMs: number;
}

function endpointsFor(sample: SeededData['sample']): Endpoint[] {
  const single = { service: 'identity', targetRate: 2000, p90TargetMs: 25 };
  const other = { service: 'identity', targetRate: 1000, p90TargetMs: 50 };
  return [
    { name: 'GET /user', path: '/api/v4/user', ...single },
    { name: 'GET /users/:id', path: `/api/v4/users/${sample.userId}`, ...single },
    { name: 'GET /users?per_page=20', path: '/api/v4/users?per_page=20', ...other },
    { name: 'GET /groups?per_page=20', path: '/api/v4/groups?per_page=20', ...other },
    { name: 'GET /groups/:id', path: `/api/v4/groups/${sample.nestedGroupId}`, ...other },
    { name: 'GET /projects/:id', path: `/api/v4/projects/${sample.projectId}`, ...other },
    { name: 'GET /projects?per_page=20', path: '/api/v4/projects?per_page=20', ...other },
    {
      name: 'GET /projects/:id/merge_requests',
      path: `/api/v4/projects/${sample.projectId}/merge_requests?per_page=20`,
      ...other,
      service: 'review',
    },
  ];
}

interface ClosedLoopResult {
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  non2xx: number;
}

async function closedLoop(url: string, headers: Record<string, string>, duration: number): Promise<ClosedLoopResult> {
  const result = await autocannon({ url, headers, duration, connections: config.BENCH_CONNECTIONS, pipelining: 1 });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * The processes this one started, by the directory they run in (`services/identity`, `gateway`...);
 * a service's second and later processes (`platform`'s `identity-2`...) add their number: `services/identity-2`.
 */
function childProcesses(platform: RunningPlatform['processes']): Map<string, number> {
  const replicaSuffix = new Map(Object.entries(platform).map(([name, child]) => [child.pid(), /-\d+$/.exec(name)?.[0] ?? '']));
  const byName = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (Number(/PPid:\s+(\d+)/.exec(status)?.[1]) !== process.pid) continue;
      const directory = path.relative(REPO_ROOT, readlinkSync(`/proc/${pid}/cwd`)) || 'bench';
      byName.set(`${directory}${replicaSuffix.get(Number(pid)) ?? ''}`, Number(pid));
    } catch {
      // The process went away meanwhile.
    }
  }
  return byName;
}

/** Resident memory (MB) of each process this one started. */
function residentMemory(platform: RunningPlatform['processes']): Record<string, number> {
  const byService: Record<string, number> = {};
  for (const [name, pid] of childProcesses(platform)) {
    try {
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      byService[name] = Math.round(rssKb / 1024);
    } catch {
      // The process went away meanwhile.
    }
  }
  return byService;
}

/**
 * CPU (ms a second) each process this one started uses over `seconds` while nothing is sent: its
 * timers, polls and consumers, a cost every request pays a share of under load.
 */
async function idleCpu(platform: RunningPlatform['processes'], seconds: number): Promise<Record<string, number>> {
  const processes = [...childProcesses(platform)].filter(([name]) => name !== 'bench' && !name.includes('kafka'));
  const before = new Map(processes.map(([, pid]) => [pid, cpuMs(pid)]));
  await setTimeout(seconds * 1000);
  return Object.fromEntries(
    processes.map(([name, pid]) => [name, Math.round((10 * Math.max(0, cpuMs(pid) - (before.get(pid) ?? 0))) / seconds) / 10]),
  );
}

interface CostPerRequest {
  /** Requests in flight at once: 1 sends each after the previous one's answer. */
  connections: number;
  requests: number;
  /** CPU milliseconds per request, by process; `postgres` sums the service database's backends. */
  cpuMs: Record<string, number>;
}

/**
 * What one request costs in CPU, measured by sending requests through the gateway for `seconds`,
 * `connections` at a time, and reading each process's CPU time before and after (to the
 * microsecond: process-cpu.ts). Unlike latency under load, this hardly depends on what else the
 * machine is doing, so runs on a busy machine stay comparable. One at a time overstates what a
 * request costs under load, where wake-ups, system calls and collections are shared between
 * requests in flight (docs/read-path.md, section 19): the bench reports both.
 */
async function costPerRequest(options: {
  platform: RunningPlatform['processes'];
  url: string;
  headers: Record<string, string>;
  seconds: number;
  connections: number;
  /** The databases whose backends' CPU counts as PostgreSQL's. */
  databases: string[];
  postgres: pg.Client;
}): Promise<CostPerRequest> {
  const backends = async () =>
    (
      await options.postgres.query<{ pid: number }>('select pid from pg_stat_activity where datname = any($1)', [options.databases])
    ).rows.map((row) => row.pid);
  const processes = [...childProcesses(options.platform)].filter(([name]) => name !== 'bench' && !name.includes('kafka'));
  const pids = new Set(await backends());
  const before = new Map<number, number>([...processes.map(([, pid]) => pid), ...pids].map((pid) => [pid, cpuMs(pid)]));
  const deadline = performance.now() + options.seconds * 1000;
  let requests = 0;
  const send = async () => {
    while (performance.now() < deadline) {
      await (await fetch(options.url, { headers: options.headers })).arrayBuffer();
      requests += 1;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, send));
  for (const pid of await backends()) pids.add(pid);
  // A backend that ended meanwhile took its CPU time with it: it counts as nothing rather than negative.
  const used = (pid: number) => Math.max(0, cpuMs(pid) - (before.get(pid) ?? 0));
  const perRequest = (ms: number) => Math.round((1000 * ms) / requests) / 1000;
  const cpu: Record<string, number> = {};
  for (const [name, pid] of processes) cpu[name] = perRequest(used(pid));
  cpu.postgres = perRequest([...pids].reduce((sum, pid) => sum + used(pid), 0));
  return { connections: options.connections, requests, cpuMs: cpu };
}

/**
 * Waits until the target answers one request quickly again: a run that overloaded it leaves a
 * queue behind, which must not be charged to the next run.
 */
async function quiesce(target: { url: string; headers: Record<string, string> }): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    try {
      await (await fetch(target.url, { headers: target.headers, signal: AbortSignal.timeout(30_000) })).arrayBuffer();
    } catch {
      // Still overloaded; try again.
    }
    if (performance.now() - started < 200) return;
  }
}

const fixed = (value: number, digits = 1) => value.toFixed(digits).padStart(8);
const say = (line = '') => process.stdout.write(`${line}\n`);

function openLoopLine(label: string, result: OpenLoopResult, p90Target: number): string {
  const { pass, reasons } = verdict(result, p90Target);
  const success = result.sent === 0 ? 100 : (100 * result.ok) / result.sent;
  return `    ${label.padEnd(18)}${fixed(result.achievedRate, 0)}${fixed(result.p50)}${fixed(result.p90)}${fixed(result.p99)}${fixed(success, 2)}  ${pass ? 'pass' : `FAIL (${reasons.join('; ')})`}`;
}

interface BaselineRow {
  endpoint: string;
  caller: string;
  cost?: CostPerRequest | null;
  concurrentCost?: CostPerRequest | null;
  openLoop: Array<{ rate: number; gateway: OpenLoopResult }>;
  closedLoop: { gateway: ClosedLoopResult };
}

const baselineRun = config.BENCH_BASELINE
  ? (JSON.parse(readFileSync(config.BENCH_BASELINE, 'utf8')) as { results: BaselineRow[]; idleCpuMsPerSecond?: Record<string, number> })
  : undefined;
const baseline: BaselineRow[] = baselineRun?.results ?? [];

if (config.BENCH_PROFILE === '1') mkdirSync(profileDir, { recursive: true });
const bench = await startBenchPlatform({
  label: 'read_path',
  databaseUrl: config.DATABASE_URL,
  kafkaBrokers: config.KAFKA_BROKERS,
  ...(config.BENCH_SERVICES ? { services: config.BENCH_SERVICES } : {}),
  ...(config.BENCH_PROFILE === '1' ? { env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } } : {}),
});
const { platform, processes, rootToken, internalSecret, postgresUrl, databasePrefix } = bench;

try {
  const size = config.BENCH_ROWS ? largeSize(config.BENCH_ROWS) : STANDARD_SIZE;
  const seedStarted = Date.now();
  const seeded = await seed(databaseUrlFor(postgresUrl, `${databasePrefix}identity`), size);
  const mergeRequests =
    'review' in platform.serviceUrls
      ? await seedMergeRequests({
          identityUrl: databaseUrlFor(postgresUrl, `${databasePrefix}identity`),
          reviewUrl: databaseUrlFor(postgresUrl, `${databasePrefix}review`),
          projectId: seeded.sample.projectId,
        })
      : null;
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  say(`Benchmark ${config.BENCH_LABEL} at ${commit} on ${os.cpus().length} CPUs, everything on this machine.`);
  say(`Seeded ${JSON.stringify({ ...seeded.counts, ...mergeRequests })} in ${seedSeconds.toFixed(1)} s.`);
  const started = Object.keys(platform.processes).filter((name) => name in processes);
  say(`Processes per service: ${started.map((service) => `${service} ${processes[service]}`).join(', ')}.`);
  say(
    `Open loop ${config.BENCH_DURATION} s per run; closed loop ${config.BENCH_CLOSED_DURATION} s, ${config.BENCH_CONNECTIONS} connections.`,
  );

  const callers: Record<string, { token: string; caller: Caller }> = {
    root: {
      token: rootToken,
      caller: { kind: 'user', userId: 1, username: 'root', name: 'Administrator', isAdmin: true, scopes: ['api'] },
    },
    member: {
      token: seeded.member.token,
      caller: {
        kind: 'user',
        userId: seeded.member.id,
        username: seeded.member.username,
        name: seeded.member.name,
        isAdmin: false,
        scopes: ['api'],
      },
    },
  };
  const chosenCallers = config.BENCH_CALLERS.filter((name) => name in callers);
  const endpoints = endpointsFor(seeded.sample).filter(
    (endpoint) =>
      endpoint.service in platform.serviceUrls &&
      (!config.BENCH_ENDPOINTS || config.BENCH_ENDPOINTS.some((wanted) => endpoint.name.includes(wanted))),
  );

  // The ceiling answers every (caller, endpoint) with what the gateway answered.
  const routes: Record<string, unknown> = {};
  for (const callerName of chosenCallers) {
    for (const endpoint of endpoints) {
      const response = await fetch(`${platform.url}${endpoint.path}`, { headers: { 'PRIVATE-TOKEN': callers[callerName]!.token } });
      if (!response.ok) throw new Error(`${endpoint.name} as ${callerName}: ${response.status} ${await response.text()}`);
      routes[`/${callerName}${new URL(endpoint.path, platform.url).pathname}`] = await response.json();
    }
  }
  const bare = await startBareServer(routes);
  const statistics = new pg.Client({ connectionString: databaseUrlFor(postgresUrl, 'postgres') });
  await statistics.connect();
  const rssBefore = residentMemory(platform.processes);
  const idleCpuBefore = await idleCpu(platform.processes, IDLE_CPU_SECONDS);
  say(`CPU of each process while idle (ms a second, over ${IDLE_CPU_SECONDS} s): ${JSON.stringify(idleCpuBefore)}`);
  if (baselineRun?.idleCpuMsPerSecond) say(`  baseline: ${JSON.stringify(baselineRun.idleCpuMsPerSecond)}`);

  const targetsFor = (endpoint: Endpoint, callerName: string) => {
    const { token, caller } = callers[callerName]!;
    return {
      bare: () => ({ url: `${bare.url}/${callerName}${endpoint.path}`, headers: {} }),
      direct: () => ({
        url: `${platform.serviceUrls[endpoint.service]}${endpoint.path}`,
        // A signed caller lives 10 s and is bound to its path: the header signs afresh each time it is read
        // (per request in open loops; autocannon's closed loops read it once, and run for less than 10 s).
        headers: {
          get [CALLER_HEADER]() {
            return signCaller(caller, internalSecret, { method: 'GET', path: new URL(endpoint.path, platform.url).pathname });
          },
        } as Record<string, string>,
      }),
      gateway: () => ({ url: `${platform.url}${endpoint.path}`, headers: { 'PRIVATE-TOKEN': token } }),
    };
  };
  // Every endpoint, caller and target is warmed (JIT, pools, plans, caches) before anything is measured, so that the
  // first one measured is not also the one that warms the processes for the rest.
  for (const endpoint of endpoints) {
    for (const callerName of chosenCallers) {
      const targets = targetsFor(endpoint, callerName);
      await closedLoop(targets.direct().url, targets.direct().headers, 1);
      await closedLoop(targets.gateway().url, targets.gateway().headers, 1);
    }
  }

  const results = [];
  for (const endpoint of endpoints) {
    for (const callerName of chosenCallers) {
      const targets = targetsFor(endpoint, callerName);
      say();
      say(`${endpoint.name} as ${callerName} (pass: >= 0.8 x rate, > 99.9% 2xx, p90 <= ${endpoint.p90TargetMs} ms)`);
      const measureCost = (connections: number) =>
        costPerRequest({
          platform: platform.processes,
          ...targets.gateway(),
          seconds: config.BENCH_COST_SECONDS,
          connections,
          // A service other than identity asks identity too (the project's access, the users in a view).
          databases: [...new Set([endpoint.service, 'identity'])].map((service) => `${databasePrefix}${service}`),
          postgres: statistics,
        });
      const cost = config.BENCH_COST_SECONDS > 0 ? await measureCost(1) : null;
      const concurrentCost = config.BENCH_COST_SECONDS > 0 ? await measureCost(config.BENCH_COST_CONNECTIONS) : null;
      const previous = baseline.find((old) => old.endpoint === endpoint.name && old.caller === callerName);
      for (const [measured, before] of [
        [cost, previous?.cost],
        [concurrentCost, previous?.concurrentCost],
      ] as const) {
        if (!measured) continue;
        const how = measured.connections === 1 ? 'one at a time' : `${measured.connections} at a time`;
        say(`  CPU per request through the gateway (ms), ${how}, ${measured.requests} requests: ${JSON.stringify(measured.cpuMs)}`);
        if (before) say(`    baseline: ${JSON.stringify(before.cpuMs)}`);
      }

      const openLoops = [];
      for (const rateName of config.BENCH_RATES) {
        const rate = rateName === 'target' ? endpoint.targetRate : Number(rateName);
        say(`  at ${rate} req/s            req/s     p50     p90     p99   2xx %`);
        const row: Record<string, unknown> = { rate };
        for (const [name, target] of Object.entries(targets)) {
          const { url, headers } = target();
          await quiesce({ url, headers });
          const result = await openLoop({ url, headers, rate, durationSeconds: config.BENCH_DURATION });
          row[name] = { ...result, ...verdict(result, endpoint.p90TargetMs) };
          say(
            openLoopLine(
              name === 'bare' ? 'bare express' : name === 'direct' ? `${endpoint.service} direct` : 'gateway',
              result,
              endpoint.p90TargetMs,
            ),
          );
        }
        const before = baseline.find((old) => old.endpoint === endpoint.name && old.caller === callerName);
        const previous = before?.openLoop.find((old) => old.rate === rate)?.gateway;
        if (previous) {
          const now = (row.gateway as OpenLoopResult).p90;
          say(`    baseline gateway p90 ${previous.p90} ms -> ${now} ms (${(previous.p90 / Math.max(now, 0.1)).toFixed(1)}x)`);
        }
        openLoops.push(row);
      }

      const closed: Record<string, ClosedLoopResult> = {};
      for (const [name, target] of Object.entries(targets)) {
        const { url, headers } = target();
        await quiesce({ url, headers });
        closed[name] = await closedLoop(url, headers, config.BENCH_CLOSED_DURATION);
      }
      const ratios = {
        gatewayToDirect: Number((closed.gateway!.requestsPerSecond / closed.direct!.requestsPerSecond).toFixed(2)),
        gatewayToBare: Number((closed.gateway!.requestsPerSecond / closed.bare!.requestsPerSecond).toFixed(2)),
      };
      say(
        `  closed loop max req/s: bare ${closed.bare!.requestsPerSecond}, direct ${closed.direct!.requestsPerSecond}, gateway ${closed.gateway!.requestsPerSecond} (p90 ${closed.gateway!.p90} ms); gateway/direct ${ratios.gatewayToDirect} (target >= 0.8), gateway/bare ${ratios.gatewayToBare}`,
      );
      const before = baseline.find((old) => old.endpoint === endpoint.name && old.caller === callerName);
      if (before) {
        say(`    baseline gateway max ${before.closedLoop.gateway.requestsPerSecond} req/s -> ${closed.gateway!.requestsPerSecond} req/s`);
      }
      results.push({
        cost,
        concurrentCost,
        endpoint: endpoint.name,
        path: endpoint.path,
        caller: callerName,
        targetRate: endpoint.targetRate,
        p90TargetMs: endpoint.p90TargetMs,
        openLoop: openLoops,
        closedLoop: closed,
        ratios,
      });
    }
  }

  await statistics.end();
  say();
  say('Summary through the gateway (pass: >= 0.8 x rate, > 99.9% 2xx, p90 within target; figures in ms):');
  const nameWidth = Math.max(...endpoints.map((endpoint) => endpoint.name.length + 2));
  say(
    `  ${'endpoint'.padEnd(nameWidth)}${'caller'.padEnd(8)}${'rate'.padStart(6)}${'req/s'.padStart(8)}${'p50'.padStart(8)}${'p90'.padStart(8)}${'p99'.padStart(8)}${'bare p90'.padStart(10)}${'target'.padStart(8)}  verdict`,
  );
  for (const result of results) {
    for (const row of result.openLoop as Array<{ rate: number; gateway: OpenLoopResult & { pass: boolean }; bare: OpenLoopResult }>) {
      const { gateway } = row;
      say(
        `  ${result.endpoint.padEnd(nameWidth)}${result.caller.padEnd(8)}${String(row.rate).padStart(6)}${fixed(gateway.achievedRate, 0)}${fixed(gateway.p50)}${fixed(gateway.p90)}${fixed(gateway.p99)}${fixed(row.bare.p90).padStart(10)}${String(result.p90TargetMs).padStart(8)}  ${gateway.pass ? 'pass' : 'FAIL'}`,
      );
    }
  }
  const rssAfter = residentMemory(platform.processes);
  // A process that grew under load gives memory back once it has been quiet for eight seconds
  // (libs/service, idle memory release): both the size at the end of the load and the size once
  // the platform has been idle longer than that are printed, the verdict on the second.
  await setTimeout(RSS_SETTLE_MS);
  const rssSettled = residentMemory(platform.processes);
  say();
  say(`Resident memory of each process (MB; target: every service under 200 after the bench, ${RSS_SETTLE_MS / 1000} s after the load):`);
  say(`  ${'process'.padEnd(20)}${'before'.padStart(8)}${'end'.padStart(8)}${'after'.padStart(8)}${'target'.padStart(8)}  verdict`);
  for (const [name, settled] of Object.entries(rssSettled).sort(([a], [b]) => a.localeCompare(b))) {
    const isService = name === 'gateway' || name.startsWith('services/');
    const verdict = isService ? (settled < RSS_TARGET_MB ? 'pass' : 'FAIL') : '';
    say(
      `  ${name.padEnd(20)}${String(rssBefore[name] ?? '').padStart(8)}${String(rssAfter[name] ?? '').padStart(8)}${String(settled).padStart(8)}${(isService ? String(RSS_TARGET_MB) : '').padStart(8)}  ${verdict}`,
    );
  }
  bare.stop();
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${stamp}-${config.BENCH_LABEL}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        label: config.BENCH_LABEL,
        commit,
        startedAt: stamp,
        machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memoryMb: Math.round(os.totalmem() / 2 ** 20) },
        settings: {
          duration: config.BENCH_DURATION,
          closedDuration: config.BENCH_CLOSED_DURATION,
          connections: config.BENCH_CONNECTIONS,
          rates: config.BENCH_RATES,
          rows: config.BENCH_ROWS ?? null,
          processes: Object.fromEntries(started.map((service) => [service, processes[service]])),
        },
        seed: { ...seeded.counts, ...mergeRequests, seconds: seedSeconds },
        results,
        rss: { before: rssBefore, endOfLoad: rssAfter, after: rssSettled },
        idleCpuMsPerSecond: idleCpuBefore,
      },
      null,
      2,
    )}\n`,
  );
  say(`Results: ${path.relative(REPO_ROOT, file)}`);
} finally {
  await bench.stop();
}
