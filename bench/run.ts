/**
 * `npm run bench`: measures the running platform from outside with autocannon and prints each
 * figure beside a baseline measured in the same run, since absolute numbers on a shared machine
 * are only indicative.
 *
 * Scenarios:
 * - GET /api/v4/users/:id through the gateway, vs a bare express server answering the same JSON
 *   from memory (the ceiling), vs the identity service called directly (the price of the hop).
 * - GET /api/v4/users?per_page=20 through the gateway, vs the bare server with that JSON.
 *
 * BENCH_DURATION (seconds per run, default 10) and BENCH_CONNECTIONS (default 50) tune it.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import express from 'express';
import { CALLER_HEADER, signCaller } from '@platform/auth';
import { ensureKafkaJars, resolvePostgres, startKafkaBroker, startPlatform } from '@platform/devstack';
import pg from 'pg';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rootToken = `glpat-${randomBytes(15).toString('base64url')}`;
const internalSecret = randomBytes(24).toString('base64url');
const databasePrefix = `bench_${randomBytes(3).toString('hex')}_`;

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  non2xx: number;
}

async function measure(url: string, headers: Record<string, string> = {}): Promise<Figures> {
  const result = await autocannon({ url, headers, duration, connections, pipelining: 1 });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

/** A bare express server that answers one path with a fixed JSON body: the ceiling. */
async function bareServer(bodies: Record<string, unknown>): Promise<{ url: string; close(): void }> {
  const app = express();
  for (const [path, body] of Object.entries(bodies)) app.get(path, (_req, res) => void res.json(body));
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const format = (figures: Figures) =>
  `${figures.requestsPerSecond.toFixed(0).padStart(8)} req/s  p50 ${String(figures.p50).padStart(4)} ms  p90 ${String(figures.p90).padStart(4)} ms  p99 ${String(figures.p99).padStart(4)} ms${figures.non2xx ? `  (${figures.non2xx} non-2xx/errors)` : ''}`;

const postgres = await resolvePostgres({ databaseUrl: process.env.DATABASE_URL });
await ensureKafkaJars();
const broker = process.env.KAFKA_BROKERS ? undefined : await startKafkaBroker();
const platform = await startPlatform({
  postgresUrl: postgres.url,
  kafkaBrokers: process.env.KAFKA_BROKERS?.split(',') ?? broker?.brokers ?? [],
  rootToken,
  internalSecret,
  gatewayPort: 0,
  freePorts: true,
  databasePrefix,
  kafkaNamespace: databasePrefix,
  logLevel: 'warn',
});

try {
  const auth = { 'PRIVATE-TOKEN': rootToken };
  const created = await fetch(`${platform.url}/api/v4/users`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', name: 'Bench User', username: 'bench', password: 'bench-password-1' }),
  });
  const user = (await created.json()) as { id: number };
  for (let index = 0; index < 40; index += 1) {
    await fetch(`${platform.url}/api/v4/users`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `bench${index}@example.com`,
        name: `Bench ${index}`,
        username: `bench${index}`,
        password: 'bench-password-1',
      }),
    });
  }
  const singlePath = `/api/v4/users/${user.id}`;
  const listPath = '/api/v4/users?per_page=20';
  const single = await (await fetch(`${platform.url}${singlePath}`, { headers: auth })).json();
  const listResponse = await fetch(`${platform.url}${listPath}`, { headers: auth });
  const list = listResponse.ok ? await listResponse.json() : undefined;
  const bare = await bareServer({ [singlePath]: single, '/api/v4/users': list ?? [] });

  process.stdout.write(`Benchmark: ${duration}s per run, ${connections} connections, this machine running everything.\n\n`);
  process.stdout.write(`GET ${singlePath} (administrator view of one user)\n`);
  const bareSingle = await measure(`${bare.url}${singlePath}`);
  process.stdout.write(`  bare express (ceiling)   ${format(bareSingle)}\n`);
  const caller = signCaller(
    { kind: 'user', userId: 1, username: 'root', name: 'Administrator', isAdmin: true, scopes: ['api'] },
    internalSecret,
  );
  // A signed caller is valid for 60 s, so the direct run refreshes it per run.
  const direct = await measure(`${platform.serviceUrls.identity}${singlePath}`, { [CALLER_HEADER]: caller });
  process.stdout.write(`  identity directly        ${format(direct)}\n`);
  const viaGateway = await measure(`${platform.url}${singlePath}`, auth);
  process.stdout.write(`  through the gateway      ${format(viaGateway)}\n`);
  process.stdout.write(
    `  ratios: gateway/bare ${(viaGateway.requestsPerSecond / bareSingle.requestsPerSecond).toFixed(2)}, gateway/direct ${(viaGateway.requestsPerSecond / direct.requestsPerSecond).toFixed(2)} (target >= 0.7)\n\n`,
  );

  process.stdout.write(`GET ${listPath}\n`);
  if (list === undefined) {
    process.stdout.write(`  skipped: the gateway answered ${listResponse.status}\n`);
  } else {
    const bareList = await measure(`${bare.url}/api/v4/users`);
    process.stdout.write(`  bare express (ceiling)   ${format(bareList)}\n`);
    const listViaGateway = await measure(`${platform.url}${listPath}`, auth);
    process.stdout.write(`  through the gateway      ${format(listViaGateway)}\n`);
    process.stdout.write(`  ratio: gateway/bare ${(listViaGateway.requestsPerSecond / bareList.requestsPerSecond).toFixed(2)}\n`);
  }
  bare.close();
} finally {
  await platform.stop();
  await broker?.stop();
  const client = new pg.Client({ connectionString: `${postgres.url}/postgres` });
  await client.connect();
  const found = await client.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [databasePrefix]);
  for (const { datname } of found.rows) await client.query(`drop database "${datname}" with (force)`);
  await client.end();
  await postgres.stop();
}
