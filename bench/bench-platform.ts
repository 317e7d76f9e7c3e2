/**
 * The platform a benchmark measures: PostgreSQL (the given server or a local one) and Kafka (the
 * given brokers or one started here), the services asked for and the gateway, under a fresh
 * database prefix; `stop` stops them and drops the run's databases. Each service runs as many
 * processes as under `npm start` (`<SERVICE>_PROCESSES`, scripts/processes-config.ts).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '@platform/config';
import {
  databaseUrlFor,
  ensureKafkaJars,
  resolvePostgres,
  startKafkaBroker,
  startPlatform,
  type RunningPlatform,
} from '@platform/devstack';
import { processesConfig, processesPerService } from '../scripts/processes-config.ts';

export interface BenchPlatform {
  platform: RunningPlatform;
  /** How many processes of each service run. */
  processes: Record<string, number>;
  rootToken: string;
  internalSecret: string;
  /** The PostgreSQL server's URL; each service's database is `<databasePrefix><service>` on it. */
  postgresUrl: string;
  databasePrefix: string;
  stop(): Promise<void>;
}

export async function startBenchPlatform(options: {
  /** Names the run's databases (`bench_<label>_<random>_<service>`). */
  label: string;
  /** Every service when not given. */
  services?: string[];
  databaseUrl?: string | undefined;
  kafkaBrokers?: string[] | undefined;
  env?: NodeJS.ProcessEnv;
  /** Told when a process that exited on its own is restarted. */
  onRestart?: (message: string) => void;
}): Promise<BenchPlatform> {
  const rootToken = `glpat-${randomBytes(15).toString('base64url')}`;
  const internalSecret = randomBytes(24).toString('base64url');
  const databasePrefix = `bench_${options.label}_${randomBytes(3).toString('hex')}_`;
  const processes = processesPerService(loadConfig(processesConfig));
  const postgres = await resolvePostgres({ databaseUrl: options.databaseUrl });
  await ensureKafkaJars();
  const broker = options.kafkaBrokers ? undefined : await startKafkaBroker();
  const platform = await startPlatform({
    postgresUrl: postgres.url,
    kafkaBrokers: options.kafkaBrokers ?? broker?.brokers ?? [],
    rootToken,
    internalSecret,
    gatewayPort: 0,
    freePorts: true,
    databasePrefix,
    kafkaNamespace: databasePrefix,
    logLevel: 'warn',
    replicas: processes,
    ...(options.services ? { services: options.services } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.onRestart ? { onRestart: options.onRestart } : {}),
  });
  return {
    platform,
    processes,
    rootToken,
    internalSecret,
    postgresUrl: postgres.url,
    databasePrefix,
    stop: async () => {
      await platform.stop();
      await broker?.stop();
      const client = new pg.Client({ connectionString: databaseUrlFor(postgres.url, 'postgres') });
      await client.connect();
      const found = await client.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [
        databasePrefix,
      ]);
      for (const { datname } of found.rows) await client.query(`drop database "${datname}" with (force)`);
      await client.end();
      await postgres.stop();
    },
  };
}
