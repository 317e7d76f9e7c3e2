import path from 'node:path';
import net from 'node:net';
import { databaseUrlFor } from './postgres-server.ts';
import { spawnSupervised, type SupervisedProcess } from './supervised-process.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Every process of the platform, in start order; the gateway comes last. */
const SERVICES = [
  { name: 'identity', dir: 'services/identity', ports: { HTTP_PORT: 3001, GRPC_PORT: 50051 } },
  { name: 'audit', dir: 'services/audit', ports: { HTTP_PORT: 3007 } },
] as const;
const GATEWAY = { name: 'gateway', dir: 'gateway', ports: { PORT: 8080 } } as const;

export interface PlatformOptions {
  postgresUrl: string;
  kafkaBrokers: string[];
  rootToken: string;
  internalSecret: string;
  /** The gateway's port; 0 picks a free one. Services use their default ports unless `freePorts`. */
  gatewayPort: number;
  freePorts?: boolean;
  /** Each service's database is `<prefix><service>`. */
  databasePrefix?: string;
  /** Suffix for consumer group ids, so two platforms sharing a broker don't split partitions. */
  consumerGroupSuffix?: string;
  logLevel?: string;
  /** Extra environment for every process (OTEL_*, ...). */
  env?: NodeJS.ProcessEnv;
  onLine?: (service: string, line: string) => void;
}

export interface RunningPlatform {
  url: string;
  rootToken: string;
  /** Where each service's HTTP API listens, for talking to it directly. */
  serviceUrls: Record<string, string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function assignPorts<Ports extends Record<string, number>>(ports: Ports, free: boolean): Promise<Ports> {
  if (!free) return ports;
  const entries = await Promise.all(Object.keys(ports).map(async (name) => [name, await freePort()] as const));
  return Object.fromEntries(entries) as Ports;
}

async function waitUntilReady(name: string, url: string, child: SupervisedProcess, timeoutMs = 120_000): Promise<void> {
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
export async function startPlatform(options: PlatformOptions): Promise<RunningPlatform> {
  const prefix = options.databasePrefix ?? 'platform_';
  const free = options.freePorts ?? false;
  const gatewayPort = options.gatewayPort === 0 ? await freePort() : options.gatewayPort;
  const url = `http://127.0.0.1:${gatewayPort}`;
  const ports = {
    identity: await assignPorts(SERVICES[0].ports, free),
    audit: await assignPorts(SERVICES[1].ports, free),
  };
  const serviceUrls = {
    identity: `http://127.0.0.1:${ports.identity.HTTP_PORT}`,
    audit: `http://127.0.0.1:${ports.audit.HTTP_PORT}`,
  };
  const identityGrpc = `127.0.0.1:${ports.identity.GRPC_PORT}`;
  const common = {
    ...process.env,
    ...options.env,
    KAFKA_BROKERS: options.kafkaBrokers.join(','),
    INTERNAL_SECRET: options.internalSecret,
    EXTERNAL_URL: url,
    IDENTITY_GRPC_ADDRESS: identityGrpc,
    LOG_LEVEL: options.logLevel ?? 'info',
  };
  const environments: Record<string, NodeJS.ProcessEnv> = {
    identity: {
      ...common,
      ...portEnv(ports.identity),
      DATABASE_URL: databaseUrlFor(options.postgresUrl, `${prefix}identity`),
      ROOT_TOKEN: options.rootToken,
    },
    audit: {
      ...common,
      ...portEnv(ports.audit),
      DATABASE_URL: databaseUrlFor(options.postgresUrl, `${prefix}audit`),
      KAFKA_GROUP_ID: `audit${options.consumerGroupSuffix ?? ''}`,
    },
    gateway: {
      ...common,
      PORT: String(gatewayPort),
      IDENTITY_URL: serviceUrls.identity,
      AUDIT_URL: serviceUrls.audit,
    },
  };

  const running: SupervisedProcess[] = [];
  const stop = async () => {
    // Gateway first, so no request reaches a service that is going away.
    for (const child of [...running].reverse()) await child.stop(10_000);
  };
  const launch = (service: { name: string; dir: string }) => {
    const child = spawnSupervised({
      command: process.execPath,
      args: ['--disable-warning=TimeoutNegativeWarning', '--import', '@platform/telemetry/register', 'src/main.ts'],
      cwd: path.join(REPO_ROOT, service.dir),
      env: { ...environments[service.name], OTEL_SERVICE_NAME: service.name },
      onLine: (line) => options.onLine?.(service.name, line),
    });
    running.push(child);
    return child;
  };

  try {
    const started = SERVICES.map((service) => ({ service, child: launch(service) }));
    await Promise.all(
      started.map(({ service, child }) => waitUntilReady(service.name, serviceUrls[service.name], child)),
    );
    await waitUntilReady(GATEWAY.name, url, launch(GATEWAY));
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, rootToken: options.rootToken, serviceUrls, stop };
}

function portEnv(ports: Record<string, number>): Record<string, string> {
  return Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)]));
}
