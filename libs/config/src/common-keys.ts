import { z } from 'zod';
import { setByDeployment } from './config-keys.ts';
import { listFromEnv } from './load-config.ts';

/** A TCP port to listen on; 0 picks a free one. */
export const portFromEnv = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const logLevelFromEnv = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** What every process of the platform reads, the gateway included. */
export const platformConfig = z.object({
  INTERNAL_SECRET: z
    .string()
    .min(16)
    .describe('signs the caller the gateway forwards to every service (16+ characters); the same for every process'),
  LOG_LEVEL: logLevelFromEnv.describe('pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`'),
  // Prometheus scrapes pods from other hosts: whether it may is the operator's choice, named by every deployment.
  METRICS_TOKEN: setByDeployment(z.string().min(16).optional()).describe(
    'bearer token Prometheus presents to read `/-/metrics` from another host (16+ characters); unset, only loopback callers may',
  ),
});

/**
 * What every service reads; a service's `config.ts` extends it with its own keys:
 * `serviceConfig({ name: 'audit', httpPort: 3007 }).extend({ ... })`.
 */
export function serviceConfig(options: { name: string; httpPort: number }) {
  return platformConfig.extend({
    HTTP_PORT: portFromEnv(options.httpPort).describe("the service's HTTP port"),
    DATABASE_URL: z.url().describe("the service's own PostgreSQL database; created if missing, migrated on start"),
    KAFKA_BROKERS: listFromEnv.pipe(z.array(z.string()).min(1)).describe('comma-separated Kafka bootstrap servers'),
    KAFKA_TOPIC_PREFIX: z
      .string()
      .regex(/^[a-zA-Z0-9._-]*$/)
      .default('')
      .describe('put before every Kafka topic name, so that several platforms can share one cluster'),
    EXTERNAL_URL: z
      .url()
      .default('http://localhost:8080')
      .describe('the public base URL of the platform: `web_url` fields and pagination links are built from it'),
    KAFKA_GROUP_ID: z
      .string()
      .min(1)
      .default(options.name)
      .describe("consumer group of the service's event consumers, shared by its replicas"),
  });
}

/**
 * The keys of a service that serves gRPC, spread into its schema:
 * `...grpcServerConfig({ port: 50052, purpose: 'where delivery asks ...' })`.
 */
export function grpcServerConfig(options: { port: number; purpose: string }) {
  return {
    GRPC_PORT: portFromEnv(options.port).describe(`the gRPC port, ${options.purpose}`),
    GRPC_HOST: z
      .string()
      .min(1)
      .default('127.0.0.1')
      .describe('the interface the gRPC server binds: `0.0.0.0` where other hosts (pods, containers) call it'),
  };
}

/** The configuration every service has, whatever it adds. */
export type ServiceConfig = z.infer<ReturnType<typeof serviceConfig>>;
