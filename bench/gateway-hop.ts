/**
 * `node bench/gateway-hop.ts`: what the gateway's hop costs, in isolation from the services. Runs
 * the gateway as deployed (its own process, `src/main.ts`, telemetry preloaded, warn logging) in
 * front of a stand-in service (the bare server, answering a page of users from memory) and a
 * stand-in identity answering `Authenticate` over gRPC, then alternates closed-loop runs straight
 * to the stand-in and through the gateway, reading the gateway's CPU time from /proc around each.
 * Prints, per round and as medians, requests per second both ways, the gateway/direct ratio and
 * the gateway's CPU milliseconds per proxied request (the target: at most 0.3). The machine is
 * shared: compare versions in runs under the same load, and repeat.
 *
 * Settings (environment): BENCH_HOP_ROUNDS (3), BENCH_HOP_USERS (how many users the page
 * holds, 20; about 1 KB each), BENCH_CLOSED_DURATION seconds per run (5),
 * BENCH_CONNECTIONS (32), BENCH_PROFILE=1 (the gateway writes a `node --cpu-prof` profile to
 * bench/results/profiles/, and its breakdown by stage is printed: profile-breakdown.ts), KAFKA_BROKERS (the gateway follows identity's events there, as
 * deployed; without, it asks the stand-in identity once a second), BENCH_GATEWAY_DIR (another
 * version of the gateway package to run instead of gateway/, to compare two under the same load),
 * BENCH_HOP_SEQUENTIAL (requests sent one after another through the gateway per round, 1,000; 0
 * for none): the gateway's CPU per request when no two requests share a turn of its event loop,
 * as `npm run bench` measures its "CPU per request through the gateway".
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import autocannon from 'autocannon';
import { z } from 'zod';
import { listFromEnv, loadConfig } from '@platform/config';
import { freePort, startCommandOf } from '@platform/devstack';
import { IdentityServiceService } from '@platform/proto/identity/v1';
import { startBareServer } from './bare-ceiling.ts';
import { profileBreakdown } from './profile-breakdown.ts';
import { cpuMs } from './process-cpu.ts';

const config = loadConfig({
  BENCH_HOP_ROUNDS: z.coerce.number().int().positive().default(3),
  BENCH_HOP_USERS: z.coerce.number().int().min(0).default(20),
  BENCH_CLOSED_DURATION: z.coerce.number().positive().default(5),
  BENCH_CONNECTIONS: z.coerce.number().int().positive().default(32),
  BENCH_PROFILE: z.enum(['0', '1']).default('0'),
  KAFKA_BROKERS: listFromEnv.optional(),
  BENCH_GATEWAY_DIR: z.string().optional(),
  BENCH_HOP_SEQUENTIAL: z.coerce.number().int().min(0).default(1000),
});

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const PATH = '/api/v4/users';
const TOKEN = `glpat-${randomBytes(15).toString('base64url')}`;
/** A user as GitLab's `GET /users` shows it to an administrator. */
const USER_BODY = {
  id: 1,
  username: 'root',
  name: 'Administrator',
  state: 'active',
  locked: false,
  avatar_url: 'http://localhost:8080/assets/no_avatar.png',
  web_url: 'http://localhost:8080/root',
  created_at: '2026-11-26T00:00:00.000Z',
  bio: '',
  location: '',
  public_email: null,
  linkedin: '',
  twitter: '',
  discord: '',
  website_url: '',
  organization: '',
  job_title: '',
  pronouns: null,
  bot: false,
  work_information: null,
  local_time: null,
  last_sign_in_at: null,
  confirmed_at: '2026-11-26T00:00:00.000Z',
  last_activity_on: null,
  email: 'admin@example.com',
  theme_id: 1,
  color_scheme_id: 1,
  projects_limit: 100000,
  current_sign_in_at: null,
  identities: [],
  can_create_group: true,
  can_create_project: true,
  two_factor_enabled: false,
  external: false,
  private_profile: false,
  commit_email: 'admin@example.com',
  is_admin: true,
  note: null,
};

const say = (line = '') => process.stdout.write(`${line}\n`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const loads = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

/** Identity's `Authenticate`, answering root for the bench's token; every other method is unimplemented. */
async function startStandInIdentity(): Promise<{ address: string; stop(): void }> {
  const server = new grpc.Server();
  server.addService(IdentityServiceService, {
    authenticate: (
      call: grpc.ServerUnaryCall<{ token: string }, unknown>,
      callback: (error: grpc.ServiceError | null, response?: unknown) => void,
    ) => {
      if (call.request.token !== TOKEN) {
        callback({ code: grpc.status.UNAUTHENTICATED, details: '401 Unauthorized' } as grpc.ServiceError);
        return;
      }
      callback(null, {
        user: { id: 1, username: 'root', name: 'Administrator', isAdmin: true },
        scopes: ['api'],
        impersonatorId: 0,
        tokenId: 1,
      });
    },
  } as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { address: `127.0.0.1:${port}`, stop: () => server.forceShutdown() };
}

const profileDir = path.join(REPO_ROOT, 'bench', 'results', 'profiles', `${new Date().toISOString().replace(/[:.]/g, '-')}-gateway-hop`);
if (config.BENCH_PROFILE === '1') mkdirSync(profileDir, { recursive: true });
const service = await startBareServer({
  [PATH]: Array.from({ length: config.BENCH_HOP_USERS }, (_, index) => ({ ...USER_BODY, id: index + 1 })),
});
const identity = await startStandInIdentity();
const port = await freePort();
const gatewayUrl = `http://127.0.0.1:${port}`;
const gatewayDir = config.BENCH_GATEWAY_DIR ?? path.join(REPO_ROOT, 'gateway');
// As its `start` script runs it, and so `npm start` and its image: memory settings and telemetry preloaded.
const gatewayStart = startCommandOf(gatewayDir);
const gateway = spawn(process.execPath, gatewayStart.args, {
  cwd: gatewayDir,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...gatewayStart.env,
    PATH: process.env.PATH,
    PORT: String(port),
    INTERNAL_SECRET: randomBytes(24).toString('base64url'),
    LOG_LEVEL: 'warn',
    PROXIED_SERVICES: 'identity',
    IDENTITY_URL: service.url,
    IDENTITY_GRPC_ADDRESS: identity.address,
    KAFKA_TOPIC_PREFIX: `gateway-hop-${randomBytes(3).toString('hex')}.`,
    ...(config.KAFKA_BROKERS ? { KAFKA_BROKERS: config.KAFKA_BROKERS.join(',') } : {}),
    ...(config.BENCH_PROFILE === '1' ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {}),
  },
});
const gatewayExited = new Promise((resolve) => gateway.once('exit', resolve));
/** Requests the gateway served, warm-up included: what its profile covers. */
let proxied = 0;

async function run(target: 'direct' | 'gateway') {
  const url = `${target === 'direct' ? service.url : gatewayUrl}${PATH}`;
  const before = cpuMs(gateway.pid ?? 0);
  const result = await autocannon({
    url,
    headers: { 'PRIVATE-TOKEN': TOKEN },
    duration: config.BENCH_CLOSED_DURATION,
    connections: config.BENCH_CONNECTIONS,
  });
  if (result.non2xx + result.errors > 0) throw new Error(`${target}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  if (target === 'gateway') proxied += result.requests.total;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p90: result.latency.p90,
    gatewayCpuMs: (cpuMs(gateway.pid ?? 0) - before) / result.requests.total,
  };
}

/** The gateway's CPU per request sent one after another, each waiting for the previous answer (`npm run bench`'s cost line). */
async function sequentialCpuMs(): Promise<number> {
  const before = cpuMs(gateway.pid ?? 0);
  for (let sent = 0; sent < config.BENCH_HOP_SEQUENTIAL; sent += 1) {
    const response = await fetch(`${gatewayUrl}${PATH}`, { headers: { 'PRIVATE-TOKEN': TOKEN } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`sequential: ${response.status}`);
  }
  proxied += config.BENCH_HOP_SEQUENTIAL;
  return (cpuMs(gateway.pid ?? 0) - before) / config.BENCH_HOP_SEQUENTIAL;
}

try {
  for (let waited = 0; ; waited += 100) {
    const healthy = await fetch(`${gatewayUrl}/-/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (waited > 60_000 || gateway.exitCode !== null) throw new Error('the gateway did not start');
    await sleep(100);
  }
  say(
    `Gateway hop: GET ${PATH}, ${config.BENCH_HOP_ROUNDS} rounds of ${config.BENCH_CLOSED_DURATION} s, ${config.BENCH_CONNECTIONS} connections,`,
  );
  say(`${os.cpus().length} CPUs, load average ${loads()}.`);
  // Warm-up: JIT, connection pools, the token cache.
  proxied += (await autocannon({ url: `${gatewayUrl}${PATH}`, headers: { 'PRIVATE-TOKEN': TOKEN }, duration: 2 })).requests.total;
  const rounds = [];
  for (let round = 1; round <= config.BENCH_HOP_ROUNDS; round += 1) {
    const direct = await run('direct');
    const through = await run('gateway');
    const sequential = config.BENCH_HOP_SEQUENTIAL > 0 ? await sequentialCpuMs() : Number.NaN;
    const ratio = through.requestsPerSecond / direct.requestsPerSecond;
    rounds.push({ direct, through, ratio, sequential });
    say(
      `  round ${round}: direct ${direct.requestsPerSecond} req/s, gateway ${through.requestsPerSecond} req/s (p90 ${through.p90} ms), ` +
        `gateway/direct ${ratio.toFixed(2)}, gateway CPU ${through.gatewayCpuMs.toFixed(3)} ms/request; ` +
        `sequential ${sequential.toFixed(3)} ms/request`,
    );
  }
  say(
    `Medians: direct ${median(rounds.map((r) => r.direct.requestsPerSecond))} req/s, gateway ${median(rounds.map((r) => r.through.requestsPerSecond))} req/s, ` +
      `gateway/direct ${median(rounds.map((r) => r.ratio)).toFixed(2)}, gateway CPU ${median(rounds.map((r) => r.through.gatewayCpuMs)).toFixed(3)} ms/request (target <= 0.3), ` +
      `sequential ${median(rounds.map((r) => r.sequential)).toFixed(3)} ms/request.`,
  );
  say(`Load average after: ${loads()}.`);
} finally {
  gateway.kill('SIGTERM');
  await gatewayExited;
  identity.stop();
  service.stop();
  if (config.BENCH_PROFILE === '1') {
    say(`Gateway profile in ${profileDir}; its CPU by stage over ${proxied} proxied requests (profiling adds its own):`);
    for (const file of readdirSync(profileDir)) {
      const stages = profileBreakdown(path.join(profileDir, file));
      const total = stages.reduce((sum, { ms }) => sum + ms, 0);
      for (const { stage, ms } of stages) {
        say(`  ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${(ms / proxied).toFixed(3)} ms  ${stage}`);
      }
      say(`  total ${(total / proxied).toFixed(3)} ms/request`);
    }
  }
}
