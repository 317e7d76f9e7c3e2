/**
 * `npm run bench:npm`: the real npm CLI publishing and installing a small package against the
 * platform's project-level npm registry (through the gateway, with identity and packages behind
 * it) and against verdaccio, side by side in the same run on the same machine.
 *
 * Each round publishes a new version to both registries and installs it into a fresh directory
 * with an empty npm cache (so the tarball is downloaded), alternating which registry goes first.
 * Prints the median and slowest wall time of each command per registry and the ratio
 * platform / verdaccio, and writes the timings as JSON to bench/results/.
 *
 * Settings (environment): BENCH_NPM_ROUNDS (7), BENCH_LABEL (in the results file name),
 * DATABASE_URL and KAFKA_BROKERS (use these instead of local ones).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { listFromEnv, loadConfig } from '@platform/config';
import { freePorts } from '@platform/devstack';
import { startBenchPlatform } from './bench-platform.ts';

const config = loadConfig({
  BENCH_NPM_ROUNDS: z.coerce.number().int().positive().default(7),
  BENCH_LABEL: z
    .string()
    .regex(/^[\w.-]+$/)
    .default('run'),
  DATABASE_URL: z.url().optional(),
  KAFKA_BROKERS: listFromEnv.optional(),
});

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const RESULTS = path.join(REPO_ROOT, 'bench', 'results');
const NPM_CLI = path.resolve(import.meta.dirname, 'node_modules/npm/bin/npm-cli.js');
const VERDACCIO_CLI = path.resolve(import.meta.dirname, 'node_modules/verdaccio/bin/verdaccio');
const PACKAGE_NAME = '@bench/kit';
const say = (line = '') => process.stdout.write(`${line}\n`);

interface Registry {
  name: 'platform' | 'verdaccio';
  url: string;
  token: string;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'bench-npm-'));

/** Runs npm with only the given registry configured and its own cache; answers the wall time in ms. */
function timedNpm(args: string[], options: { cwd: string; registry: Registry; cache: string }): Promise<number> {
  const userconfig = path.join(options.cwd, '.npmrc');
  const withoutScheme = options.registry.url.replace(/^https?:/, '');
  writeFileSync(userconfig, `@bench:registry=${options.registry.url}\n${withoutScheme}:_authToken=${options.registry.token}\n`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [NPM_CLI, ...args],
      {
        cwd: options.cwd,
        env: {
          PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
          HOME: work,
          npm_config_userconfig: userconfig,
          npm_config_globalconfig: path.join(work, 'no-global-npmrc'),
          npm_config_cache: options.cache,
          npm_config_audit: 'false',
          npm_config_fund: 'false',
          npm_config_update_notifier: 'false',
          npm_config_loglevel: 'warn',
        },
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`npm ${args.join(' ')} against ${options.registry.name} failed:\n${stdout}${stderr}`));
        else resolve(performance.now() - started);
      },
    );
  });
}

function directory(...parts: string[]): string {
  const dir = path.join(work, ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Verdaccio on a free port with its own storage, anyone may sign up; answers its URL, a token and the process. */
async function startVerdaccio(): Promise<{ registry: Registry; child: ChildProcess }> {
  const [port] = await freePorts(1);
  const home = directory('verdaccio');
  const configFile = path.join(home, 'config.yaml');
  writeFileSync(
    configFile,
    [
      `storage: ${path.join(home, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${path.join(home, 'htpasswd')}`,
      'uplinks: {}',
      'packages:',
      "  '**':",
      '    access: $authenticated',
      '    publish: $authenticated',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [VERDACCIO_CLI, '--config', configFile, '--listen', `127.0.0.1:${port}`], { stdio: 'ignore' });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}`);
    const answered = await fetch(`${url}/-/ping`).catch(() => undefined);
    if (answered?.ok) break;
    if (Date.now() > deadline) throw new Error('verdaccio did not answer within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const signUp = await fetch(`${url}/-/user/org.couchdb.user:bench`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'bench', password: 'bench-password' }),
  });
  const { token } = (await signUp.json()) as { token?: string };
  if (!signUp.ok || !token) throw new Error(`verdaccio refused the sign-up with ${signUp.status}`);
  return { registry: { name: 'verdaccio', url: `${url}/`, token }, child };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const bench = await startBenchPlatform({
  label: 'npm',
  services: ['identity', 'packages'],
  databaseUrl: config.DATABASE_URL,
  kafkaBrokers: config.KAFKA_BROKERS,
});
const { platform, rootToken } = bench;
const verdaccio = await startVerdaccio();

try {
  const created = await fetch(`${platform.url}/api/v4/projects`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Bench kit', path: 'bench-kit' }),
  });
  const project = (await created.json()) as { id: number };
  if (created.status !== 201) throw new Error(`creating the project answered ${created.status}`);
  const registries: Registry[] = [
    { name: 'platform', url: `${platform.url}/api/v4/projects/${project.id}/packages/npm/`, token: rootToken },
    verdaccio.registry,
  ];
  const timings: Record<Registry['name'], { publish: number[]; install: number[] }> = {
    platform: { publish: [], install: [] },
    verdaccio: { publish: [], install: [] },
  };
  say(`npm ${PACKAGE_NAME}: ${config.BENCH_NPM_ROUNDS} rounds of publish and install per registry, on ${os.cpus().length} CPUs.`);
  for (let round = 1; round <= config.BENCH_NPM_ROUNDS; round += 1) {
    const version = `1.0.${round}`;
    const ordered = round % 2 === 1 ? registries : [...registries].reverse();
    for (const registry of ordered) {
      const source = directory(registry.name, `source-${version}`);
      writeFileSync(path.join(source, 'package.json'), JSON.stringify({ name: PACKAGE_NAME, version, main: 'index.js', license: 'MIT' }));
      writeFileSync(path.join(source, 'index.js'), `module.exports = ${JSON.stringify(`${'x'.repeat(4096)}${version}`)};\n`);
      const cache = directory(registry.name, `cache-${version}`);
      timings[registry.name].publish.push(await timedNpm(['publish'], { cwd: source, registry, cache }));
      const consumer = directory(registry.name, `consumer-${version}`);
      writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '0.0.0', private: true }));
      const freshCache = directory(registry.name, `install-cache-${version}`);
      timings[registry.name].install.push(
        await timedNpm(['install', `${PACKAGE_NAME}@${version}`], { cwd: consumer, registry, cache: freshCache }),
      );
    }
  }

  const summary = (['publish', 'install'] as const).map((command) => {
    const ours = timings.platform[command];
    const theirs = timings.verdaccio[command];
    return {
      command,
      platform: { medianMs: median(ours), maxMs: Math.max(...ours) },
      verdaccio: { medianMs: median(theirs), maxMs: Math.max(...theirs) },
      ratio: median(ours) / median(theirs),
    };
  });
  say('');
  say('  command      platform median / max (ms)   verdaccio median / max (ms)   ratio (platform / verdaccio)');
  for (const row of summary) {
    const pair = (value: { medianMs: number; maxMs: number }) =>
      `${value.medianMs.toFixed(0).padStart(8)} / ${value.maxMs.toFixed(0).padEnd(8)}`;
    say(`  npm ${row.command.padEnd(9)}${pair(row.platform).padEnd(29)}${pair(row.verdaccio).padEnd(30)}${row.ratio.toFixed(2)}`);
  }
  mkdirSync(RESULTS, { recursive: true });
  const file = path.join(RESULTS, `${new Date().toISOString().replace(/[:.]/g, '-')}-npm-clients-${config.BENCH_LABEL}.json`);
  writeFileSync(file, `${JSON.stringify({ rounds: config.BENCH_NPM_ROUNDS, cpus: os.cpus().length, summary, timings }, null, 2)}\n`);
  say(`\nWrote ${path.relative(REPO_ROOT, file)}.`);
} finally {
  verdaccio.child.kill();
  await bench.stop();
  rmSync(work, { recursive: true, force: true });
}
