/**
 * `npm run bench:alerts`: the alert intake endpoint (`POST /<project>/alerts/notify/...json`
 * through the gateway, with identity and alerts behind it) under an open-loop load at fixed
 * rates: requests per second achieved and latency percentiles, judged as the rest of the
 * benchmark is (GitLab Performance Tool: at least 0.8 of the rate, more than 99.9% 2xx, p90
 * within the target), beside a bare express server answering the same requests from memory
 * (the ceiling: what the machine allows at that moment).
 *
 * Two payload mixes: `new` gives every request its own fingerprint (each opens an alert and an
 * incident and records two events), `grouped` repeats one fingerprint (each increments the open
 * alert's events count: one row, so requests queue on it).
 *
 * Settings (environment): BENCH_ALERT_RATES (50,200), BENCH_DURATION (seconds per run, 10),
 * BENCH_ALERT_P90_MS (target, 50), BENCH_LABEL, DATABASE_URL and KAFKA_BROKERS (use these
 * instead of local ones).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { listFromEnv, loadConfig } from '@platform/config';
import { startBareServer } from './bare-ceiling.ts';
import { startBenchPlatform } from './bench-platform.ts';
import { openLoop, verdict, type OpenLoopResult } from './open-loop.ts';

const config = loadConfig({
  BENCH_ALERT_RATES: listFromEnv.pipe(z.array(z.string().regex(/^\d+$/).transform(Number))).default([50, 200]),
  BENCH_DURATION: z.coerce.number().positive().default(10),
  BENCH_ALERT_P90_MS: z.coerce.number().positive().default(50),
  BENCH_LABEL: z
    .string()
    .regex(/^[\w.-]+$/)
    .default('run'),
  DATABASE_URL: z.url().optional(),
  KAFKA_BROKERS: listFromEnv.optional(),
});

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(REPO_ROOT, 'bench', 'results');
const say = (line = '') => process.stdout.write(`${line}\n`);

/** A payload of the size and shape monitoring tools send: every field, nested extras. */
function payload(fingerprint: string): string {
  return JSON.stringify({
    title: 'HTTP 5xx ratio above 2% on checkout',
    description: 'The share of 5xx answers of the checkout service went over its threshold for 5 minutes.',
    start_time: new Date().toISOString(),
    service: 'checkout',
    monitoring_tool: 'Grafana',
    hosts: ['checkout-1.internal', 'checkout-2.internal'],
    severity: 'high',
    fingerprint,
    svc_environment_name: 'production',
    labels: { team: 'payments', region: 'eu-west-1', tier: { name: 'frontend', replicas: 6 } },
    runbook: 'https://runbooks.example.com/checkout/5xx',
    values: [2.1, 2.4, 3.8, 4.2],
  });
}

const MIXES = {
  new: (run: string) => (index: number) => payload(`${run}-${index}`),
  grouped: (run: string) => () => payload(`${run}-grouped`),
} as const;

const bench = await startBenchPlatform({
  label: 'alerts',
  services: ['identity', 'alerts'],
  databaseUrl: config.DATABASE_URL,
  kafkaBrokers: config.KAFKA_BROKERS,
});
const { platform, rootToken } = bench;

try {
  const asRoot = { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' };
  const created = await fetch(`${platform.url}/api/v4/projects`, {
    method: 'POST',
    headers: asRoot,
    body: JSON.stringify({ name: 'Bench alerts', path: 'bench-alerts' }),
  });
  if (created.status !== 201) throw new Error(`creating the project answered ${created.status}`);
  const project = (await created.json()) as { id: number };
  const integrationResponse = await fetch(`${platform.url}/api/v4/projects/${project.id}/alert_management/http_integrations`, {
    method: 'POST',
    headers: asRoot,
    body: JSON.stringify({ name: 'Bench' }),
  });
  if (integrationResponse.status !== 201) throw new Error(`creating the integration answered ${integrationResponse.status}`);
  const integration = (await integrationResponse.json()) as { url: string; token: string };
  const intakePath = new URL(integration.url).pathname;
  const headers = { Authorization: `Bearer ${integration.token}`, 'Content-Type': 'application/json' };
  const bare = await startBareServer({ [intakePath]: {} });
  const targets = { ceiling: `${bare.url}${intakePath}`, gateway: `${platform.url}${intakePath}` };

  // Warm-up: connections, JIT.
  await openLoop({ url: targets.gateway, method: 'POST', headers, body: MIXES.new('warm-up'), rate: 20, durationSeconds: 2 });

  say(
    `Alert intake through the gateway, ${config.BENCH_DURATION} s per run, on ${os.cpus().length} CPUs (p90 target ${config.BENCH_ALERT_P90_MS} ms).`,
  );
  const columns = ['req/s', '2xx %', 'p50', 'p90', 'p99', 'max'].map((name) => name.padStart(8)).join('');
  say(`  ${'mix'.padEnd(9)}${'target'.padEnd(9)}${'rate'.padStart(6)}${columns}  verdict`);
  const runs: Array<{ mix: string; target: string; result: OpenLoopResult; pass: boolean; reasons: string[] }> = [];
  for (const mix of Object.keys(MIXES) as Array<keyof typeof MIXES>) {
    for (const rate of config.BENCH_ALERT_RATES) {
      for (const [target, url] of Object.entries(targets)) {
        const result = await openLoop({
          url,
          method: 'POST',
          headers,
          body: MIXES[mix](`${mix}-${rate}`),
          rate,
          durationSeconds: config.BENCH_DURATION,
        });
        const judged = verdict(result, config.BENCH_ALERT_P90_MS);
        runs.push({ mix, target, result, ...judged });
        const okShare = result.sent > 0 ? (100 * result.ok) / result.sent : 0;
        const figures = [result.achievedRate, okShare, result.p50, result.p90, result.p99, result.max];
        say(
          `  ${mix.padEnd(9)}${target.padEnd(9)}${String(rate).padStart(6)}${figures.map((value) => value.toFixed(1).padStart(8)).join('')}  ` +
            (judged.pass ? 'pass' : `fail: ${judged.reasons.join('; ')}`),
        );
      }
    }
  }
  bare.stop();
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${new Date().toISOString().replace(/[:.]/g, '-')}-alert-intake-${config.BENCH_LABEL}.json`);
  writeFileSync(file, `${JSON.stringify({ cpus: os.cpus().length, p90TargetMs: config.BENCH_ALERT_P90_MS, runs }, null, 2)}\n`);
  say(`\nWrote ${path.relative(REPO_ROOT, file)}.`);
} finally {
  await bench.stop();
}
