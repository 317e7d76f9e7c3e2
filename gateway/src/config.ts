import { z } from 'zod';
import { grpcAddressFromEnv, listFromEnv, loadConfig, platformConfig, portFromEnv } from '@platform/config';
import { SERVICES } from './route-table.ts';

/** One address, or several separated by commas: the gateway balances between them. */
const urlList = listFromEnv.pipe(z.array(z.url()).min(1));

export const configSchema = platformConfig.extend({
  PORT: portFromEnv(8080),
  /** Where each service's HTTP API listens. */
  IDENTITY_URL: urlList.default(['http://127.0.0.1:3001']),
  AUDIT_URL: urlList.default(['http://127.0.0.1:3007']),
  REVIEW_URL: urlList.default(['http://127.0.0.1:3002']),
  PACKAGES_URL: urlList.default(['http://127.0.0.1:3003']),
  ADMIN_URL: urlList.default(['http://127.0.0.1:3006']),
  ALERTS_URL: urlList.default(['http://127.0.0.1:3005']),
  DELIVERY_URL: urlList.default(['http://127.0.0.1:3004']),
  /**
   * The services this gateway proxies to, all of them unless given: a path owned by another one
   * answers 503, as GitLab does for a component that is down (a platform started with fewer services).
   */
  PROXIED_SERVICES: listFromEnv.pipe(z.array(z.enum(SERVICES)).min(1)).default([...SERVICES]),
  /** Bounds on every proxied request: opening the connection, then waiting for the response. */
  UPSTREAM_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(1).default(1000),
  UPSTREAM_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** Consecutive failures that open an address's circuit, and how long it then fails fast. */
  UPSTREAM_FAILURES_TO_OPEN: z.coerce.number().int().min(1).default(5),
  UPSTREAM_HALF_OPEN_AFTER_MS: z.coerce.number().int().min(1).default(1000),
  /** On SIGTERM, how long requests in flight may take to finish. */
  DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * Proxies in front of the gateway whose X-Forwarded-For/-Proto are believed: addresses, CIDR
   * subnets or express's `loopback`, `linklocal`, `uniquelocal`, comma-separated. None by default.
   */
  TRUSTED_PROXIES: listFromEnv.default([]),
  /** Bearer token Prometheus sends to scrape `/-/metrics`; unset, metrics are not served. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Identity's gRPC address, for token authentication. */
  IDENTITY_GRPC_ADDRESS: grpcAddressFromEnv.default('127.0.0.1:50051'),
  /** How long an authenticated token is trusted without asking identity again (at most 1 s without KAFKA_BROKERS). */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(10_000),
  /** How long past that a token keeps working while identity cannot be reached. */
  AUTH_CACHE_STALE_MS: z.coerce.number().int().min(0).default(300_000),
  /** Where identity's change events are read, to drop cached tokens of blocked or demoted users at once. */
  KAFKA_BROKERS: listFromEnv.pipe(z.array(z.string()).min(1)).optional(),
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9._-]*$/)
    .default(''),
});

export type GatewayConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): GatewayConfig => loadConfig(configSchema, env);
