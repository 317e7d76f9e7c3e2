/**
 * `npm run bench:unleash`: what Unleash SDKs send, to the client API of GitLab's Unleash
 * endpoint (`/api/v4/feature_flags/unleash/:project_id/client/...` through the gateway, with
 * identity and delivery behind it) and of Unleash's own server (`unleash-server`,
 * `/api/client/...`, in a process of its own on a throwaway PostgreSQL database of the same
 * server) serving the same flags, in the same run: an open-loop load at fixed rates,
 * alternating which server goes first, each run's requests per second and latency percentiles,
 * judged as the rest of the benchmark is, the CPU milliseconds per request of each process
 * serving it, the ratio platform / unleash-server of the p50 and p90 latencies, and the highest
 * rate each held (the target: the platform at least twice unleash-server's). First, what each kind
 * of request costs alone (CPU milliseconds per request by process, at 200 req/s): a poll
 * answered 304, one answered 200, metrics and a registration.
 *
 * The requests are those of unleash-client-node 6 (`src/repository/polling-fetcher.ts`,
 * `src/metrics.ts`, `src/request.ts`) at its default intervals, a poll every 15 s and metrics
 * every 60 s: each SDK instance registers once (`POST client/register`), polls
 * `GET client/features` first without and then with `If-None-Match` of the ETag it got (304
 * while the flags stand), and posts its metrics bucket (every flag counted) once for every four
 * polls. Instances follow one another, `REQUESTS_PER_INSTANCE` requests each (25 minutes of an
 * SDK's life), so every run has the same mix whatever its rate: 1% registrations, 1% full
 * answers, 79% 304s and 19% metrics. The platform's SDKs present the project's instance id as
 * GitLab documents; unleash-server's present a client token (`Authorization`) and an instance
 * id of their own.
 *
 * The flags: BENCH_UNLEASH_FLAGS flags in the `production` environment, a quarter each
 * `default`, `userWithId` (five user ids), `flexibleRollout` (stickiness `default`, rollout 50)
 * and disabled; the SDK asks as the app `production`.
 *
 * The highest rate each server holds is stated as exactly as the rates tried are close: for
 * capacity, steps of 250-500 req/s around both limits (`BENCH_UNLEASH_RATES=1500,2000,2500,3000,
 * 3500,4000,4500,5000`). Rates run lowest first; a server that failed at two rates in a row is not
 * run at the higher ones.
 *
 * Settings (environment): BENCH_UNLEASH_RATES (100,300), BENCH_DURATION (seconds per run, 10),
 * BENCH_UNLEASH_FLAGS (40), BENCH_UNLEASH_P90_MS (target, 50), BENCH_LABEL, BENCH_PROFILE=1
 * (the platform's processes write `node --cpu-prof` profiles to a directory of the run's in `bench/results/profiles/`),
 * DATABASE_URL and KAFKA_BROKERS (use these instead of local ones).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import { listFromEnv, loadConfig } from '@platform/config';
import { databaseUrlFor, freePorts } from '@platform/devstack';
import { startBenchPlatform } from './bench-platform.ts';
import { openLoop, verdict, type OpenLoopRequest, type OpenLoopResult } from './open-loop.ts';
import { cpuMs } from './process-cpu.ts';

const config = loadConfig({
  BENCH_UNLEASH_RATES: listFromEnv.pipe(z.array(z.string().regex(/^\d+$/).transform(Number))).default([100, 300]),
  BENCH_DURATION: z.coerce.number().positive().default(10),
  BENCH_UNLEASH_FLAGS: z.coerce.number().int().min(4).default(40),
  BENCH_UNLEASH_P90_MS: z.coerce.number().positive().default(50),
  BENCH_LABEL: z
    .string()
    .regex(/^[\w.-]+$/)
    .default('run'),
  BENCH_PROFILE: z.enum(['0', '1']).default('0'),
  DATABASE_URL: z.url().optional(),
  KAFKA_BROKERS: listFromEnv.optional(),
});

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(REPO_ROOT, 'bench', 'results');
const PROFILES = path.join(RESULTS, 'profiles', `${new Date().toISOString().replace(/[:.]/g, '-')}-unleash-clients-${config.BENCH_LABEL}`);
const ENVIRONMENT = 'production';
const say = (line = '') => process.stdout.write(`${line}\n`);

/** The SDK whose requests are sent: unleash-client-node's version and the client specification it supports. */
const SDK = { version: '6.12.1', spec: '5.2.0', pollIntervalMs: 15_000, metricsIntervalMs: 60_000 };
/** Requests of one SDK instance before the next takes over (25 minutes at the SDK's intervals). */
const REQUESTS_PER_INSTANCE = 100;
/** The rates, lowest first, so that a server's failures in a row mean it is past its limit. */
const RATES = [...config.BENCH_UNLEASH_RATES].sort((a, b) => a - b);
/** A server that failed at this many rates in a row is not run at higher ones. */
const SATURATED_AFTER = 2;
/** Each kind of request's cost alone is measured over this many requests at this rate. */
const COST_REQUESTS = 600;
const COST_RATE = 200;

/** A server's client API as its SDKs are pointed at it. */
interface SdkTarget {
  /** The base URL an SDK is given; it asks `client/features` and the others below it. */
  url: string;
  /** The instance id SDK instance `instance` presents: GitLab's is the project's, Unleash SDKs make their own. */
  instanceId: (instance: number) => string;
  /** Headers an SDK is configured to add to each request (unleash-server's client token). */
  custom: Record<string, string>;
  /** What the server's client features answer carries, which SDKs send back in `If-None-Match`. */
  etag: string;
}

/**
 * Request `index` of the mix: step `index % REQUESTS_PER_INSTANCE` of SDK instance
 * `index / REQUESTS_PER_INSTANCE`. An instance registers, polls without an ETag, then polls with
 * it, every fifth request after the first poll being its metrics instead (a poll every 15 s,
 * metrics every 60 s).
 */
function sdkRequest(target: SdkTarget, flagNames: string[], index: number): OpenLoopRequest {
  const instance = Math.floor(index / REQUESTS_PER_INSTANCE);
  const step = index % REQUESTS_PER_INSTANCE;
  const instanceId = target.instanceId(instance);
  const connectionId = `bench-connection-${instance}`;
  const path = `${new URL(target.url).pathname}/client/`;
  // As unleash-client-node's `buildHeaders`: the SDK's own, the configured ones, then the connection id.
  const headers = (own: Record<string, string>) => ({
    'User-Agent': ENVIRONMENT,
    'unleash-appname': ENVIRONMENT,
    'UNLEASH-INSTANCEID': instanceId,
    ...own,
    'unleash-sdk': `unleash-node-sdk:${SDK.version}`,
    ...target.custom,
    'unleash-connection-id': connectionId,
  });
  const about = { appName: ENVIRONMENT, instanceId, connectionId, platformName: 'node', platformVersion: process.versions.node };
  if (step === 0) {
    const started = new Date().toISOString();
    const body = {
      ...about,
      sdkVersion: `unleash-client-node:${SDK.version}`,
      strategies: ['default', 'applicationHostname', 'gradualRolloutRandom', 'remoteAddress', 'userWithId', 'flexibleRollout'],
      started,
      interval: SDK.metricsIntervalMs,
      yggdrasilVersion: null,
      specVersion: SDK.spec,
    };
    return {
      method: 'POST',
      path: `${path}register`,
      headers: headers({ 'Content-Type': 'application/json' }),
      body: JSON.stringify(body),
    };
  }
  if (step > 1 && (step - 2) % 5 === 4) {
    const stop = new Date();
    const bucket = {
      start: new Date(stop.getTime() - SDK.metricsIntervalMs).toISOString(),
      stop: stop.toISOString(),
      toggles: Object.fromEntries(flagNames.map((name) => [name, { yes: 30, no: 30, variants: {} }])),
    };
    const body = { ...about, bucket, yggdrasilVersion: null, specVersion: SDK.spec };
    const interval = String(SDK.metricsIntervalMs);
    return {
      method: 'POST',
      path: `${path}metrics`,
      headers: headers({ 'Content-Type': 'application/json', 'unleash-interval': interval }),
      body: JSON.stringify(body),
    };
  }
  const condition: Record<string, string> = step === 1 ? {} : { 'If-None-Match': target.etag };
  const own = { ...condition, 'Unleash-Client-Spec': SDK.spec, 'unleash-interval': String(SDK.pollIntervalMs) };
  return { method: 'GET', path: `${path}features`, headers: headers(own) };
}

/** One flag as both servers are told it: its strategy in `production`, or none when disabled. */
interface Flag {
  name: string;
  enabled: boolean;
  strategy: { name: string; parameters: Record<string, string> };
}

function flags(count: number): Flag[] {
  const kinds = [
    () => ({ name: 'default', parameters: {} }),
    () => ({ name: 'userWithId', parameters: { userIds: 'u1,u2,u3,u4,u5' } }),
    () => ({ name: 'flexibleRollout', parameters: { groupId: 'bench', rollout: '50', stickiness: 'default' } }),
  ];
  return Array.from({ length: count }, (_, index) => {
    const name = `bench_flag_${index}`;
    const kind = index % 4;
    return { name, enabled: kind !== 3, strategy: (kinds[kind % 3] ?? kinds[0]!)() };
  });
}

async function call(url: string, options: { method: string; headers: Record<string, string>; body?: unknown }, expected: number[]) {
  const response = await fetch(url, {
    method: options.method,
    headers: { 'Content-Type': 'application/json', ...options.headers },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  if (!expected.includes(response.status)) throw new Error(`${options.method} ${url} answered ${response.status}: ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** Unleash's own server on a database of its own (dropped with the run's), its client API open to `token`. */
async function startUnleashServer(options: { postgresUrl: string; database: string; token: string }) {
  const admin = new pg.Client({ connectionString: databaseUrlFor(options.postgresUrl, 'postgres') });
  await admin.connect();
  await admin.query(`create database "${options.database}"`);
  await admin.end();
  const [port] = await freePorts(1);
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'unleash-server-process.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrlFor(options.postgresUrl, options.database),
      PORT: String(port),
      CLIENT_TOKEN: options.token,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`unleash-server exited with ${child.exitCode}`);
    const answered = await fetch(`${url}/health`).catch(() => undefined);
    if (answered?.ok) break;
    if (Date.now() > deadline) throw new Error('unleash-server did not answer within 180 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { url, child };
}

if (config.BENCH_PROFILE === '1') mkdirSync(PROFILES, { recursive: true });
const bench = await startBenchPlatform({
  label: 'unleash',
  services: ['identity', 'delivery'],
  databaseUrl: config.DATABASE_URL,
  kafkaBrokers: config.KAFKA_BROKERS,
  ...(config.BENCH_PROFILE === '1' ? { env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILES}` } } : {}),
});
const { platform, rootToken } = bench;
const unleashToken = `*:${ENVIRONMENT}.${randomBytes(16).toString('hex')}`;
let unleash: Awaited<ReturnType<typeof startUnleashServer>> | undefined;
let postgres: pg.Client | undefined;

try {
  // Its database is named with the run's prefix, so the run's end drops it with the platform's.
  unleash = await startUnleashServer({ postgresUrl: bench.postgresUrl, database: `${bench.databasePrefix}unleash`, token: unleashToken });
  const asRoot = { 'PRIVATE-TOKEN': rootToken };
  const project = await call(
    `${platform.url}/api/v4/projects`,
    { method: 'POST', headers: asRoot, body: { name: 'Bench flags', path: 'bench-flags' } },
    [201],
  );
  const projectId = project.id as number;
  const defined = flags(config.BENCH_UNLEASH_FLAGS);
  // Unleash 5+ no longer ships `userWithId`; as a custom strategy its SDKs still get it as GitLab serves it.
  await call(
    `${unleash.url}/api/admin/strategies`,
    {
      method: 'POST',
      headers: {},
      body: { name: 'userWithId', parameters: [{ name: 'userIds', type: 'list', description: 'User ids', required: true }] },
    },
    [201],
  );
  for (const flag of defined) {
    await call(
      `${platform.url}/api/v4/projects/${projectId}/feature_flags`,
      {
        method: 'POST',
        headers: asRoot,
        body: {
          name: flag.name,
          version: 'new_version_flag',
          active: flag.enabled,
          strategies: [{ ...flag.strategy, scopes: [{ environment_scope: ENVIRONMENT }] }],
        },
      },
      [201],
    );
    const feature = `${unleash.url}/api/admin/projects/default/features`;
    await call(feature, { method: 'POST', headers: {}, body: { name: flag.name, type: 'release' } }, [201]);
    await call(`${feature}/${flag.name}/environments/${ENVIRONMENT}/strategies`, { method: 'POST', headers: {}, body: flag.strategy }, [
      200,
    ]);
    if (flag.enabled) await call(`${feature}/${flag.name}/environments/${ENVIRONMENT}/on`, { method: 'POST', headers: {} }, [200]);
  }
  const client = await call(`${platform.url}/api/v4/projects/${projectId}/feature_flags_client`, { method: 'GET', headers: asRoot }, [200]);
  const instanceId = client.instance_id as string;
  const servers = {
    platform: {
      url: `${platform.url}/api/v4/feature_flags/unleash/${projectId}`,
      instanceId: () => instanceId,
      custom: {},
    },
    'unleash-server': {
      url: `${unleash.url}/api`,
      instanceId: (instance: number) => `bench-sdk-${instance}`,
      custom: { Authorization: unleashToken },
    },
  };
  const flagNames = defined.map((flag) => flag.name);
  const targets = {} as Record<keyof typeof servers, SdkTarget>;
  // Both answer the same flags, enabled or not, with an ETag, before anything is measured.
  for (const [name, server] of Object.entries(servers) as Array<[keyof typeof servers, (typeof servers)[keyof typeof servers]]>) {
    const first = sdkRequest({ ...server, etag: '' }, flagNames, 1);
    const response = await fetch(`${server.url}/client/features`, { headers: first.headers });
    const answer = (await response.json()) as { features: Array<{ name: string; enabled: boolean }> };
    const served = answer.features.map((feature) => `${feature.name}:${feature.enabled}`).sort();
    const wanted = defined.map((flag) => `${flag.name}:${flag.enabled}`).sort();
    if (JSON.stringify(served) !== JSON.stringify(wanted)) throw new Error(`${name} serves other flags: ${served.join(' ')}`);
    const etag = response.headers.get('etag');
    if (!etag) throw new Error(`${name} answers client features without an ETag`);
    targets[name] = { ...server, etag };
    // Warm-up: connections, JIT, caches.
    await openLoop({ url: server.url, request: (index) => sdkRequest(targets[name], flagNames, index), rate: 50, durationSeconds: 2 });
  }
  // The processes serving each server's clients, whose CPU time each run charges to its requests.
  const pidsOf = (names: string[]) => () =>
    Object.entries(platform.processes)
      .filter(([name]) => names.includes(name.replace(/-\d+$/, '')))
      .map(([name, child]) => [name, child.pid()] as const);
  const servingProcesses = {
    platform: pidsOf(['gateway', 'delivery', 'identity']),
    'unleash-server': () => [['unleash-server', unleash!.child.pid!] as const],
  };
  const databasesOf = { platform: ['delivery', 'identity'], 'unleash-server': ['unleash'] };
  postgres = new pg.Client({ connectionString: databaseUrlFor(bench.postgresUrl, 'postgres') });
  await postgres.connect();
  const backendsOf = async (server: keyof typeof servers) =>
    (
      await postgres!.query<{ pid: number }>('select pid from pg_stat_activity where datname = any($1)', [
        databasesOf[server].map((database) => `${bench.databasePrefix}${database}`),
      ])
    ).rows.map((row) => row.pid);

  /** Runs `load` and charges each serving process's CPU time (and its databases' backends') to its `requests`. */
  const cpuPerRequest = async (server: keyof typeof servers, load: () => Promise<OpenLoopResult>) => {
    const processes = [...servingProcesses[server](), ['bench', process.pid] as const];
    const backends = new Set(await backendsOf(server));
    const cpuOf = (pid: number) => {
      if (pid !== process.pid) return cpuMs(pid);
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    };
    const before = new Map([...processes.map(([, pid]) => pid), ...backends].map((pid) => [pid, cpuOf(pid)]));
    const result = await load();
    for (const pid of await backendsOf(server)) backends.add(pid);
    // A process or backend that ended meanwhile took its CPU time with it: it counts as nothing rather than negative.
    const used = (pid: number) => Math.max(0, cpuOf(pid) - (before.get(pid) ?? 0));
    const perRequest = (ms: number) => Math.round((1000 * ms) / Math.max(result.sent, 1)) / 1000;
    const cpuMsPerRequest: Record<string, number> = {};
    for (const [name, pid] of processes) cpuMsPerRequest[name] = perRequest(used(pid));
    cpuMsPerRequest.postgres = perRequest([...backends].reduce((sum, pid) => sum + used(pid), 0));
    return { result, cpuMsPerRequest };
  };
  const describeCpu = (cpu: Record<string, number>) =>
    Object.entries(cpu)
      .map(([name, ms]) => `${name} ${ms.toFixed(3)}`)
      .join(', ');

  // What each kind of request costs alone, at a rate every process serves without queueing; each
  // kind is measured twice in turn and the run with the lower total kept (the other took more
  // of the machine's noise: a compilation, a collection, a neighbour).
  const kinds = { 'poll answered 304': 2, 'poll answered 200': 1, metrics: 6, register: 0 };
  const costs: Record<string, Record<string, Record<string, number>>> = {};
  const total = (cpu: Record<string, number>) => Object.values(cpu).reduce((sum, ms) => sum + ms, 0);
  say(`CPU ms per request by kind (${COST_REQUESTS} requests each at ${COST_RATE}/s, the lower of two runs):`);
  for (const server of Object.keys(servers) as Array<keyof typeof servers>) {
    const measured: Record<string, Record<string, number>> = {};
    for (let round = 0; round < 2; round += 1) {
      for (const [kind, step] of Object.entries(kinds)) {
        const { cpuMsPerRequest } = await cpuPerRequest(server, () =>
          openLoop({
            url: targets[server].url,
            // The same step of successive instances.
            request: (index) => sdkRequest(targets[server], flagNames, index * REQUESTS_PER_INSTANCE + step),
            rate: COST_RATE,
            durationSeconds: COST_REQUESTS / COST_RATE,
          }),
        );
        const earlier = measured[kind];
        if (!earlier || total(cpuMsPerRequest) < total(earlier)) measured[kind] = cpuMsPerRequest;
      }
    }
    costs[server] = measured;
    for (const [kind, cpu] of Object.entries(measured)) say(`  ${server.padEnd(16)}${kind.padEnd(20)}${describeCpu(cpu)}`);
  }

  say(
    `\nUnleash client features (${defined.length} flags), ${config.BENCH_DURATION} s per run, on ${os.cpus().length} CPUs (p90 target ${config.BENCH_UNLEASH_P90_MS} ms).`,
  );
  const columns = ['req/s', 'ok %', 'p50', 'p90', 'p99', 'max'].map((name) => name.padStart(8)).join('');
  say(`  ${'server'.padEnd(16)}${'rate'.padStart(6)}${columns}  verdict`);
  const runs: Array<{ server: string; result: OpenLoopResult; cpuMsPerRequest: Record<string, number>; pass: boolean; reasons: string[] }> =
    [];
  const ratios: Array<{ rate: number; p50: number; p90: number; achieved: number }> = [];
  // A server that failed at `SATURATED_AFTER` rates in a row is past what it holds: its runs at
  // higher rates are skipped, which would take the drain's deadline each and load the cores the
  // other server's runs share.
  const failuresInARow: Record<keyof typeof targets, number> = { platform: 0, 'unleash-server': 0 };
  for (const [index, rate] of RATES.entries()) {
    const order = index % 2 === 0 ? (['platform', 'unleash-server'] as const) : (['unleash-server', 'platform'] as const);
    const results: Partial<Record<keyof typeof targets, OpenLoopResult>> = {};
    for (const server of order) {
      if (failuresInARow[server] >= SATURATED_AFTER) {
        say(`  ${server.padEnd(16)}${String(rate).padStart(6)}  skipped: failed at ${SATURATED_AFTER} lower rates in a row`);
        continue;
      }
      const { result, cpuMsPerRequest } = await cpuPerRequest(server, () =>
        openLoop({
          url: targets[server].url,
          request: (index) => sdkRequest(targets[server], flagNames, index),
          rate,
          durationSeconds: config.BENCH_DURATION,
        }),
      );
      const judged = verdict(result, config.BENCH_UNLEASH_P90_MS);
      results[server] = result;
      failuresInARow[server] = judged.pass ? 0 : failuresInARow[server] + 1;
      runs.push({ server, result, cpuMsPerRequest, ...judged });
      const okShare = result.sent > 0 ? (100 * result.ok) / result.sent : 0;
      const figures = [result.achievedRate, okShare, result.p50, result.p90, result.p99, result.max];
      say(
        `  ${server.padEnd(16)}${String(rate).padStart(6)}${figures.map((value) => value.toFixed(1).padStart(8)).join('')}  ` +
          (judged.pass ? 'pass' : `fail: ${judged.reasons.join('; ')}`),
      );
      say(`  ${''.padEnd(22)}CPU ms/request: ${describeCpu(cpuMsPerRequest)}`);
    }
    const ours = results.platform;
    const theirs = results['unleash-server'];
    if (!ours || !theirs) continue;
    const ratio = (a: number, b: number) => Math.round((a / Math.max(b, 0.1)) * 100) / 100;
    ratios.push({
      rate,
      p50: ratio(ours.p50, theirs.p50),
      p90: ratio(ours.p90, theirs.p90),
      achieved: ratio(ours.achievedRate, theirs.achievedRate),
    });
  }
  say('\n  ratio platform / unleash-server');
  say(`  ${'rate'.padStart(6)}${'p50'.padStart(8)}${'p90'.padStart(8)}${'req/s'.padStart(8)}`);
  for (const row of ratios)
    say(`  ${String(row.rate).padStart(6)}${[row.p50, row.p90, row.achieved].map((value) => value.toFixed(2).padStart(8)).join('')}`);
  // The target: the platform holds at least twice the highest rate unleash-server holds, both judged as above.
  const highestHeld = Object.fromEntries(
    Object.keys(targets).map((server) => [
      server,
      Math.max(0, ...runs.filter((run) => run.server === server && run.pass).map((run) => run.result.rate)),
    ]),
  );
  const theirsHeld = highestHeld['unleash-server']!;
  const oursHeld = highestHeld.platform!;
  say(`\n  highest rate held: platform ${oursHeld}/s, unleash-server ${theirsHeld}/s`);
  for (const [server, held] of Object.entries(highestHeld)) {
    if (held === Math.max(...RATES)) say(`  ${server} held every rate tried: add higher BENCH_UNLEASH_RATES to find its limit`);
  }
  say(`  platform >= 2 x unleash-server: ${oursHeld >= 2 * theirsHeld && theirsHeld > 0 ? 'met' : 'not met'}`);
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${new Date().toISOString().replace(/[:.]/g, '-')}-unleash-clients-${config.BENCH_LABEL}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ cpus: os.cpus().length, flags: defined.length, p90TargetMs: config.BENCH_UNLEASH_P90_MS, costs, runs, ratios, highestHeld }, null, 2)}\n`,
  );
  say(`\nWrote ${path.relative(REPO_ROOT, file)}.`);
} finally {
  await postgres?.end();
  const child = unleash?.child;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  }
  await bench.stop();
}
