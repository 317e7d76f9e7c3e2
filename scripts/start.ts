/**
 * `npm start`: brings up PostgreSQL, Kafka, every service and the gateway, prints the URL and
 * an administrator token, and stops everything on Ctrl-C or SIGTERM.
 *
 * Reads: PORT (gateway, default 8080), DATABASE_URL (a PostgreSQL server to use instead of the
 * local or embedded one), KAFKA_BROKERS (a Kafka cluster to use instead of the local broker),
 * ROOT_TOKEN, INTERNAL_SECRET, CI_VARIABLES_KEY, LOG_LEVEL, and `<SERVICE>_PROCESSES` (how many
 * processes of a service run side by side: processes-config.ts). State lives in .cache/ (git-ignored).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { loadConfig, listFromEnv } from '@platform/config';
import { ensureKafkaJars, resolvePostgres, startKafkaBroker, startPlatform } from '@platform/devstack';
import { processesConfig, processesPerService } from './processes-config.ts';

const root = path.resolve(import.meta.dirname, '..');
const state = path.join(root, '.cache', 'platform');
mkdirSync(path.join(state, 'logs'), { recursive: true });

const config = loadConfig({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  DATABASE_URL: z.url().optional(),
  KAFKA_BROKERS: listFromEnv.optional(),
  ROOT_TOKEN: z.string().min(20).optional(),
  INTERNAL_SECRET: z.string().min(16).optional(),
  CI_VARIABLES_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
const processes = processesPerService(loadConfig(processesConfig));

/** A secret kept across restarts, so tokens and signed headers stay valid. */
function persistentSecret(name: string, given: string | undefined, generate: () => string): string {
  if (given) return given;
  const file = path.join(state, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = generate();
  writeFileSync(file, value, { mode: 0o600 });
  return value;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const stops: Array<() => Promise<void>> = [];
let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    say('Stopping...');
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => say(String(error)));
  }
  process.exit(code);
}
process.once('SIGINT', () => void shutdown(0));
process.once('SIGTERM', () => void shutdown(0));

try {
  const postgres = await resolvePostgres({ databaseUrl: config.DATABASE_URL, dataDir: path.join(root, '.cache', 'postgres') });
  stops.push(postgres.stop);
  say(`PostgreSQL: ${postgres.source} (${postgres.url.replace(/:[^:@/]+@/, ':***@')})`);

  let kafkaBrokers = config.KAFKA_BROKERS;
  if (!kafkaBrokers?.length) {
    say('Kafka: starting a local broker (first run fetches its jars from Maven Central)...');
    await ensureKafkaJars();
    const broker = await startKafkaBroker({ dataDir: path.join(root, '.cache', 'kafka-data') });
    stops.push(broker.stop);
    kafkaBrokers = broker.brokers;
  }
  say(`Kafka: ${kafkaBrokers.join(',')}`);

  const rootToken = persistentSecret('root-token', config.ROOT_TOKEN, () => `glpat-${randomBytes(15).toString('base64url')}`);
  const internalSecret = persistentSecret('internal-secret', config.INTERNAL_SECRET, () => randomBytes(32).toString('base64url'));
  // Variable values stay readable across restarts only with the key they were encrypted with.
  const ciVariablesKey = persistentSecret('ci-variables-key', config.CI_VARIABLES_KEY, () => randomBytes(32).toString('base64'));
  const logs = new Map<string, NodeJS.WritableStream>();
  const platform = await startPlatform({
    postgresUrl: postgres.url,
    kafkaBrokers,
    rootToken,
    internalSecret,
    ciVariablesKey,
    gatewayPort: config.PORT,
    dataDir: path.join(state, 'data'),
    logLevel: config.LOG_LEVEL,
    replicas: processes,
    onRestart: say,
    onLine: (service, line) => {
      let log = logs.get(service);
      if (!log) {
        log = createWriteStream(path.join(state, 'logs', `${service}.log`), { flags: 'a' });
        logs.set(service, log);
      }
      log.write(`${line}\n`);
      // Warnings and errors also reach the console; everything is in the log files.
      const level = /^\{"level":(\d+)/.exec(line)?.[1];
      if (level === undefined || Number(level) >= 40) say(`[${service}] ${line}`);
    },
  });
  stops.push(platform.stop);

  say('');
  say(`The platform is up: ${platform.url}`);
  say(`Administrator (root) token: ${platform.rootToken}`);
  const several = Object.entries(processes).filter(([, count]) => count > 1);
  if (several.length > 0) say(`Processes side by side: ${several.map(([service, count]) => `${service} ${count}`).join(', ')}`);
  say(`Try: curl -H "PRIVATE-TOKEN: ${platform.rootToken}" ${platform.url}/api/v4/user`);
  say(`Logs: ${path.relative(root, path.join(state, 'logs'))}/. Ctrl-C stops everything.`);
} catch (error) {
  say(`Failed to start: ${error instanceof Error ? error.message : String(error)}`);
  await shutdown(1);
}
