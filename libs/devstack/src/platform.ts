import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseUrlFor } from './postgres-server.ts';
import { spawnRestarting, type RestartingProcess, type RestartPolicy } from './restarting-process.ts';
import { freePort, freePorts } from './free-port.ts';
import { ensureRegistryKeys, keptSecret, registryCommand, writeRegistryConfig } from './container-registry.ts';
import { fillCompileCaches, startCommandOf } from './start-command.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The services of the platform, started together before the gateway. `env` adds what only that
 * service reads; every service also gets the common variables (Kafka, secret, URLs, log level).
 */
interface ServiceDefinition {
  name: string;
  dir: string;
  ports: Record<string, number>;
  /** Reached by the gateway at this variable, e.g. IDENTITY_URL. */
  gatewayVariable: string;
  database: boolean;
  env?: (options: PlatformOptions & { dataDir: string }) => NodeJS.ProcessEnv;
}

const SERVICES: ServiceDefinition[] = [
  {
    name: 'identity',
    dir: 'services/identity',
    ports: { HTTP_PORT: 3001, GRPC_PORT: 50051 },
    gatewayVariable: 'IDENTITY_URL',
    database: true,
    env: (options) => ({
      ROOT_TOKEN: options.rootToken,
      DATA_DIR: path.join(options.dataDir, 'identity'),
      // Identity follows review's events (where repositories live): its consumer group is the platform's own.
      KAFKA_GROUP_ID: options.kafkaNamespace ? `identity.${options.kafkaNamespace}` : 'identity',
    }),
  },
  {
    name: 'review',
    dir: 'services/review',
    ports: { HTTP_PORT: 3002, GRPC_PORT: 50052 },
    gatewayVariable: 'REVIEW_URL',
    database: true,
    env: (options) => ({
      KAFKA_GROUP_ID: options.kafkaNamespace ? `review.${options.kafkaNamespace}` : 'review',
      DATA_DIR: path.join(options.dataDir, 'review'),
    }),
  },
  {
    name: 'packages',
    dir: 'services/packages',
    ports: { HTTP_PORT: 3003, GRPC_PORT: 50053 },
    gatewayVariable: 'PACKAGES_URL',
    database: true,
    env: (options) => ({
      KAFKA_GROUP_ID: options.kafkaNamespace ? `packages.${options.kafkaNamespace}` : 'packages',
      DATA_DIR: path.join(options.dataDir, 'packages'),
    }),
  },
  {
    name: 'admin',
    dir: 'services/admin',
    ports: { HTTP_PORT: 3006, GRPC_PORT: 50056 },
    gatewayVariable: 'ADMIN_URL',
    database: true,
    // A platform without a kept key (a test's) encrypts its variables with a key of its own.
    env: (options) => ({ CI_VARIABLES_KEY: options.ciVariablesKey ?? randomBytes(32).toString('base64') }),
  },
  {
    name: 'alerts',
    dir: 'services/alerts',
    ports: { HTTP_PORT: 3005 },
    gatewayVariable: 'ALERTS_URL',
    database: true,
  },
  {
    name: 'delivery',
    dir: 'services/delivery',
    ports: { HTTP_PORT: 3004 },
    gatewayVariable: 'DELIVERY_URL',
    database: true,
  },
  {
    name: 'audit',
    dir: 'services/audit',
    ports: { HTTP_PORT: 3007 },
    gatewayVariable: 'AUDIT_URL',
    database: true,
    env: (options) => ({ KAFKA_GROUP_ID: options.kafkaNamespace ? `audit.${options.kafkaNamespace}` : 'audit' }),
  },
  {
    name: 'hooks',
    dir: 'services/hooks',
    ports: { HTTP_PORT: 3008 },
    gatewayVariable: 'HOOKS_URL',
    database: true,
    env: (options) => ({ KAFKA_GROUP_ID: options.kafkaNamespace ? `hooks.${options.kafkaNamespace}` : 'hooks' }),
  },
];
const GATEWAY = { name: 'gateway', dir: 'gateway' };

/** The names of the services `startPlatform` can run, in start order. */
export const PLATFORM_SERVICES: readonly string[] = SERVICES.map((service) => service.name);

export interface PlatformOptions {
  postgresUrl: string;
  kafkaBrokers: string[];
  rootToken: string;
  internalSecret: string;
  /** Encrypts the admin service's CI/CD variable values; generated for this platform when not given. */
  ciVariablesKey?: string;
  /** The gateway's port; 0 picks a free one. Services use their default ports unless `freePorts`. */
  gatewayPort: number;
  freePorts?: boolean;
  /**
   * The services to start, every one unless given; identity always runs, since the gateway
   * authenticates through it. The gateway answers 503 for the paths of the others.
   */
  services?: string[];
  /**
   * How many processes of a service run side by side (`{ identity: 2 }`), one unless given. The
   * first is named as the service, the others `<service>-2`...; the gateway and the gRPC clients
   * balance between them. On default ports, replica n listens 100 ports above replica n-1.
   */
  replicas?: Record<string, number>;
  /**
   * Where services keep their files (review's repositories, identity's avatars), one directory each below it; a
   * temporary directory, removed on stop, when not given.
   */
  dataDir?: string;
  /** Each service's database is `<prefix><service>`. */
  databasePrefix?: string;
  /**
   * Prefixes every Kafka topic and suffixes every consumer group, so that several platforms
   * (parallel test runs, say) can share one broker without seeing each other's events.
   */
  kafkaNamespace?: string;
  logLevel?: string;
  /** The container registry's port when the packages service runs (5000 unless given; a free one with `freePorts`). */
  registryPort?: number;
  /** Extra environment for every process (OTEL_*, ...). */
  env?: NodeJS.ProcessEnv;
  /** The gateway's environment over everything else, e.g. a service's address through a test's own proxy. */
  gatewayEnv?: NodeJS.ProcessEnv;
  onLine?: (service: string, line: string) => void;
  /** Told when a process that exited on its own is restarted (`npm start` prints it). */
  onRestart?: (message: string) => void;
  restartPolicy?: RestartPolicy;
}

export interface RunningPlatform {
  url: string;
  rootToken: string;
  /** Where each service's HTTP API listens (each replica's, by process name), for talking to it directly. */
  serviceUrls: Record<string, string>;
  /** The container registry's address, when the packages service runs. */
  registryUrl?: string;
  /** Each process by name (the services, their replicas, `gateway` and `registry`); restarted when it exits on its own. */
  processes: Record<string, RestartingProcess>;
  stop(): Promise<void>;
}

async function assignPorts(ports: Record<string, number>, free: boolean): Promise<Record<string, number>> {
  if (!free) return ports;
  const names = Object.keys(ports);
  const assigned = await freePorts(names.length);
  return Object.fromEntries(names.map((name, index) => [name, assigned[index] ?? 0]));
}

async function waitUntilReady(name: string, url: string, child: RestartingProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.isDead()) throw new Error(`${name} exited during startup:\n${child.lastOutput()}`);
    try {
      const response = await fetch(`${url}/-/readiness`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${name} not ready after ${timeoutMs / 1000}s:\n${child.lastOutput()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Starts every service and then the gateway as child processes of this one, each on Node 24
 * with OpenTelemetry preloaded, and resolves once the gateway reports every service ready.
 */
export async function startPlatform(given: PlatformOptions): Promise<RunningPlatform> {
  const temporaryDataDir = given.dataDir === undefined ? await mkdtemp(path.join(tmpdir(), 'platform-')) : undefined;
  const options = { ...given, dataDir: given.dataDir ?? temporaryDataDir ?? '' };
  const prefix = options.databasePrefix ?? 'platform_';
  const gatewayPort = options.gatewayPort === 0 ? await freePort() : options.gatewayPort;
  const services = selectServices(options.services);
  const url = `http://127.0.0.1:${gatewayPort}`;
  const instances = services.flatMap((service) =>
    Array.from({ length: options.replicas?.[service.name] ?? 1 }, (_, index) => ({
      service,
      name: index === 0 ? service.name : `${service.name}-${index + 1}`,
      replica: index,
    })),
  );
  const instancesOf = (service: string) => instances.filter((instance) => instance.service.name === service);
  const ports = new Map<string, Record<string, number>>();
  for (const { service, name, replica } of instances) {
    const defaults = Object.fromEntries(Object.entries(service.ports).map(([variable, port]) => [variable, port + 100 * replica]));
    ports.set(name, await assignPorts(defaults, options.freePorts ?? false));
  }
  const portOf = (instance: string, variable: string) => ports.get(instance)?.[variable];
  const serviceUrls = Object.fromEntries(instances.map(({ name }) => [name, `http://127.0.0.1:${portOf(name, 'HTTP_PORT')}`]));
  const urlsOf = (service: string) => instancesOf(service).map(({ name }) => serviceUrls[name]);
  const common = {
    ...process.env,
    ...options.env,
    KAFKA_BROKERS: options.kafkaBrokers.join(','),
    KAFKA_TOPIC_PREFIX: options.kafkaNamespace ? `${options.kafkaNamespace}.` : '',
    INTERNAL_SECRET: options.internalSecret,
    EXTERNAL_URL: url,
    IDENTITY_GRPC_ADDRESS: instancesOf('identity')
      .map(({ name }) => `127.0.0.1:${portOf(name, 'GRPC_PORT')}`)
      .join(','),
    // Where delivery asks which merge requests a deployment shipped, when review runs.
    ...(ports.has('review')
      ? {
          REVIEW_GRPC_ADDRESS: instancesOf('review')
            .map(({ name }) => `127.0.0.1:${portOf(name, 'GRPC_PORT')}`)
            .join(','),
        }
      : {}),
    // Where identity asks which projects have container registry tags, when the packages service runs.
    ...(ports.has('packages')
      ? {
          PACKAGES_GRPC_ADDRESS: instancesOf('packages')
            .map(({ name }) => `127.0.0.1:${portOf(name, 'GRPC_PORT')}`)
            .join(','),
        }
      : {}),
    // Where services read the application settings, when the admin service runs.
    ...(ports.has('admin') ? { ADMIN_GRPC_ADDRESS: `127.0.0.1:${portOf('admin', 'GRPC_PORT')}` } : {}),
    LOG_LEVEL: options.logLevel ?? 'info',
  };
  const environments: Record<string, NodeJS.ProcessEnv> = {
    [GATEWAY.name]: {
      ...common,
      PORT: String(gatewayPort),
      PROXIED_SERVICES: services.map((service) => service.name).join(','),
      ...Object.fromEntries(services.map((service) => [service.gatewayVariable, urlsOf(service.name).join(',')])),
      ...options.gatewayEnv,
    },
  };
  for (const { service, name } of instances) {
    environments[name] = {
      ...common,
      ...portEnv(ports.get(name) ?? {}),
      ...(service.database ? { DATABASE_URL: databaseUrlFor(options.postgresUrl, `${prefix}${service.name}`) } : {}),
      ...service.env?.(options),
    };
  }

  // The packages service's container registry: a Distribution registry that asks the gateway's
  // /jwt/auth for tokens and tells the packages service (through the gateway) what was pushed.
  const registry = ports.has('packages') ? await prepareRegistry(options, url) : undefined;
  if (registry) {
    for (const { service, name } of instances) {
      if (service.name === 'packages') Object.assign(environments[name] ?? {}, registry.serviceEnv);
      if (service.name === 'identity')
        Object.assign(environments[name] ?? {}, { REGISTRY_PUBLIC_HOST: registry.serviceEnv.REGISTRY_PUBLIC_HOST });
    }
  }

  const running: RestartingProcess[] = [];
  const processes: Record<string, RestartingProcess> = {};
  const stop = async () => {
    // Gateway first, so no request reaches a service that is going away.
    for (const child of [...running].reverse()) await child.stop(10_000);
    if (temporaryDataDir) await rm(temporaryDataDir, { recursive: true, force: true });
  };
  const launch = (service: { name: string; dir: string }, name = service.name) => {
    const cwd = path.join(REPO_ROOT, service.dir);
    // As the package's `start` script and its image run it, memory settings included.
    const start = startCommandOf(cwd);
    const child = spawnRestarting({
      name,
      ...(options.restartPolicy ? { policy: options.restartPolicy } : {}),
      ...(options.onRestart ? { onRestart: options.onRestart } : {}),
      command: process.execPath,
      args: start.args,
      cwd,
      env: { ...start.env, ...environments[name], OTEL_SERVICE_NAME: service.name },
      onLine: (line) => options.onLine?.(name, line),
    });
    running.push(child);
    processes[name] = child;
    return child;
  };

  try {
    if (registry) {
      const child = spawnRestarting({
        name: 'registry',
        ...(options.restartPolicy ? { policy: options.restartPolicy } : {}),
        ...(options.onRestart ? { onRestart: options.onRestart } : {}),
        ...registry.command,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        onLine: (line) => options.onLine?.('registry', line),
      });
      running.push(child);
      processes.registry = child;
      await waitUntilRegistryAnswers(registry.url, child);
    }
    // Every module compiled before anything starts, so that no process loads the TypeScript stripper.
    await fillCompileCaches([...services, GATEWAY].map((service) => path.join(REPO_ROOT, service.dir)));
    // Services start together; a service's replicas one after the other, the first one seeding its database.
    await Promise.all(
      services.map(async (service) => {
        for (const { name } of instancesOf(service.name)) await waitUntilReady(name, serviceUrls[name] ?? '', launch(service, name));
      }),
    );
    await waitUntilReady(GATEWAY.name, url, launch(GATEWAY));
  } catch (error) {
    await stop();
    throw error;
  }
  // A process that fails to start fails the start; once up, one that exits is restarted.
  for (const child of running) child.supervise();
  return { url, rootToken: options.rootToken, serviceUrls, processes, stop, ...(registry ? { registryUrl: registry.url } : {}) };
}

/** The registry's configuration, keys and port, and what the packages service needs to know of them. */
async function prepareRegistry(options: PlatformOptions & { dataDir: string }, gatewayUrl: string) {
  const port = options.freePorts ? await freePort() : (options.registryPort ?? 5000);
  const dir = path.join(options.dataDir, 'registry');
  const keys = await ensureRegistryKeys(dir);
  const notificationSecret = await keptSecret(path.join(dir, 'notification-secret'), () => randomBytes(24).toString('base64url'));
  const configFile = await writeRegistryConfig(dir, {
    port,
    realm: `${gatewayUrl}/jwt/auth`,
    certFile: keys.certFile,
    storageDir: path.join(dir, 'storage'),
    notificationUrl: `${gatewayUrl}/container_registry_event/events`,
    notificationSecret,
    httpSecret: await keptSecret(path.join(dir, 'http-secret'), () => randomBytes(24).toString('base64url')),
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    command: registryCommand(configFile),
    serviceEnv: {
      REGISTRY_URL: url,
      REGISTRY_PUBLIC_HOST: `127.0.0.1:${port}`,
      REGISTRY_TOKEN_KEY_FILE: keys.keyFile,
      REGISTRY_NOTIFICATION_SECRET: notificationSecret,
    },
  };
}

/** The registry is up once its API base answers, with 401 since it wants a token. */
async function waitUntilRegistryAnswers(url: string, child: RestartingProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.isDead()) throw new Error(`registry exited during startup:\n${child.lastOutput()}`);
    try {
      const response = await fetch(`${url}/v2/`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 401 || response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`registry not answering after ${timeoutMs / 1000}s:\n${child.lastOutput()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function selectServices(names: string[] | undefined): ServiceDefinition[] {
  if (names === undefined) return SERVICES;
  const unknown = names.filter((name) => !SERVICES.some((service) => service.name === name));
  if (unknown.length > 0) throw new Error(`no such service: ${unknown.join(', ')}`);
  return SERVICES.filter((service) => service.name === 'identity' || names.includes(service.name));
}

function portEnv(ports: Record<string, number>): Record<string, string> {
  return Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)]));
}
