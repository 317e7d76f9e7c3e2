/**
 * `npm run bench:unleash`: what Unleash SDKs poll, the client features endpoint
 * (`GET /api/v4/feature_flags/unleash/:project_id/client/features` through the gateway, with
 * identity and delivery behind it), against Unleash's own server (`unleash-server`,
 * `GET /api/client/features`, in a process of its own on a throwaway PostgreSQL database of the
 * same server) serving the same flags, in the same run: an open-loop load at fixed rates,
 * alternating which server goes first, each run's requests per second and latency percentiles,
 * judged as the rest of the benchmark is, the ratio platform / unleash-server of the p50 and
 * p90 latencies, and the highest rate each held (the target: the platform at least twice
 * unleash-server's).
 *
 * The flags: BENCH_UNLEASH_FLAGS flags in the `production` environment, a quarter each
 * `default`, `userWithId` (five user ids), `flexibleRollout` (stickiness `default`, rollout 50)
 * and disabled; the SDK asks as the app `production`.
 *
 * Settings (environment): BENCH_UNLEASH_RATES (100,300), BENCH_DURATION (seconds per run, 10),
 * BENCH_UNLEASH_FLAGS (40), BENCH_UNLEASH_P90_MS (target, 50), BENCH_LABEL, DATABASE_URL and
 * KAFKA_BROKERS (use these instead of local ones).
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
import { openLoop, verdict, type OpenLoopResult } from './open-loop.ts';

const config = loadConfig({
  BENCH_UNLEASH_RATES: listFromEnv.pipe(z.array(z.string().regex(/^\d+$/).transform(Number))).default([100, 300]),
  BENCH_DURATION: z.coerce.number().positive().default(10),
  BENCH_UNLEASH_FLAGS: z.coerce.number().int().min(4).default(40),
  BENCH_UNLEASH_P90_MS: z.coerce.number().positive().default(50),
  BENCH_LABEL: z
    .string()
    .regex(/^[\w.-]+$/)
    .default('run'),
  DATABASE_URL: z.url().optional(),
  KAFKA_BROKERS: listFromEnv.optional(),
});

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(REPO_ROOT, 'bench', 'results');
const ENVIRONMENT = 'production';
const say = (line = '') => process.stdout.write(`${line}\n`);

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

const bench = await startBenchPlatform({
  label: 'unleash',
  services: ['identity', 'delivery'],
  databaseUrl: config.DATABASE_URL,
  kafkaBrokers: config.KAFKA_BROKERS,
});
const { platform, rootToken } = bench;
const unleashToken = `*:${ENVIRONMENT}.${randomBytes(16).toString('hex')}`;
let unleash: Awaited<ReturnType<typeof startUnleashServer>> | undefined;

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
  const targets = {
    platform: {
      url: `${platform.url}/api/v4/feature_flags/unleash/${projectId}/client/features`,
      headers: { 'UNLEASH-INSTANCEID': client.instance_id as string, 'UNLEASH-APPNAME': ENVIRONMENT },
    },
    'unleash-server': {
      url: `${unleash.url}/api/client/features`,
      headers: { Authorization: unleashToken, 'UNLEASH-APPNAME': ENVIRONMENT },
    },
  };
  // Both answer the same flags, enabled or not, before anything is measured.
  for (const [name, target] of Object.entries(targets)) {
    const answer = await call(target.url, { method: 'GET', headers: target.headers }, [200]);
    const served = (answer.features as Array<{ name: string; enabled: boolean }>)
      .map((feature) => `${feature.name}:${feature.enabled}`)
      .sort();
    const wanted = defined.map((flag) => `${flag.name}:${flag.enabled}`).sort();
    if (JSON.stringify(served) !== JSON.stringify(wanted)) throw new Error(`${name} serves other flags: ${served.join(' ')}`);
    // Warm-up: connections, JIT, caches.
    await openLoop({ url: target.url, headers: target.headers, rate: 50, durationSeconds: 2 });
  }

  say(
    `Unleash client features (${defined.length} flags), ${config.BENCH_DURATION} s per run, on ${os.cpus().length} CPUs (p90 target ${config.BENCH_UNLEASH_P90_MS} ms).`,
  );
  const columns = ['req/s', '2xx %', 'p50', 'p90', 'p99', 'max'].map((name) => name.padStart(8)).join('');
  say(`  ${'server'.padEnd(16)}${'rate'.padStart(6)}${columns}  verdict`);
  const runs: Array<{ server: string; result: OpenLoopResult; pass: boolean; reasons: string[] }> = [];
  const ratios: Array<{ rate: number; p50: number; p90: number; achieved: number }> = [];
  for (const [index, rate] of config.BENCH_UNLEASH_RATES.entries()) {
    const order = index % 2 === 0 ? (['platform', 'unleash-server'] as const) : (['unleash-server', 'platform'] as const);
    const results: Partial<Record<keyof typeof targets, OpenLoopResult>> = {};
    for (const server of order) {
      const result = await openLoop({
        url: targets[server].url,
        headers: targets[server].headers,
        rate,
        durationSeconds: config.BENCH_DURATION,
      });
      const judged = verdict(result, config.BENCH_UNLEASH_P90_MS);
      results[server] = result;
      runs.push({ server, result, ...judged });
      const okShare = result.sent > 0 ? (100 * result.ok) / result.sent : 0;
      const figures = [result.achievedRate, okShare, result.p50, result.p90, result.p99, result.max];
      say(
        `  ${server.padEnd(16)}${String(rate).padStart(6)}${figures.map((value) => value.toFixed(1).padStart(8)).join('')}  ` +
          (judged.pass ? 'pass' : `fail: ${judged.reasons.join('; ')}`),
      );
    }
    const ours = results.platform!;
    const theirs = results['unleash-server']!;
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
  if (theirsHeld === Math.max(...config.BENCH_UNLEASH_RATES)) {
    say('  unleash-server held every rate tried: add higher BENCH_UNLEASH_RATES to find its limit');
  }
  say(`  platform >= 2 x unleash-server: ${oursHeld >= 2 * theirsHeld && theirsHeld > 0 ? 'met' : 'not met'}`);
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${new Date().toISOString().replace(/[:.]/g, '-')}-unleash-clients-${config.BENCH_LABEL}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ cpus: os.cpus().length, flags: defined.length, p90TargetMs: config.BENCH_UNLEASH_P90_MS, runs, ratios, highestHeld }, null, 2)}\n`,
  );
  say(`\nWrote ${path.relative(REPO_ROOT, file)}.`);
} finally {
  const child = unleash?.child;
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  }
  await bench.stop();
}
