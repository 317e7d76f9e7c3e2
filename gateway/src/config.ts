import { z } from 'zod';
import { grpcAddressFromEnv, listFromEnv, loadConfig, platformConfig, portFromEnv, setByDeployment } from '@platform/config';
import { SERVICES } from './route-table.ts';

/** One address, or several separated by commas: the gateway balances between them. */
const urlList = listFromEnv.pipe(z.array(z.url()).min(1));
const SERVICE_URL = "where the service's HTTP API listens; several addresses, comma-separated, are balanced";

export const configSchema = platformConfig.extend({
  PORT: portFromEnv(8080).describe("the gateway's port"),
  IDENTITY_URL: urlList.default(['http://127.0.0.1:3001']).describe(SERVICE_URL),
  AUDIT_URL: urlList.default(['http://127.0.0.1:3007']).describe(SERVICE_URL),
  HOOKS_URL: urlList.default(['http://127.0.0.1:3008']).describe(SERVICE_URL),
  REVIEW_URL: urlList.default(['http://127.0.0.1:3002']).describe(SERVICE_URL),
  PACKAGES_URL: urlList.default(['http://127.0.0.1:3003']).describe(SERVICE_URL),
  ADMIN_URL: urlList.default(['http://127.0.0.1:3006']).describe(SERVICE_URL),
  ALERTS_URL: urlList.default(['http://127.0.0.1:3005']).describe(SERVICE_URL),
  DELIVERY_URL: urlList.default(['http://127.0.0.1:3004']).describe(SERVICE_URL),
  PROXIED_SERVICES: listFromEnv
    .pipe(z.array(z.enum(SERVICES)).min(1))
    .default([...SERVICES])
    .describe(
      "the services this gateway proxies to, comma-separated, every one unless given; paths of the others answer GitLab's 503, and readiness reports only these",
    ),
  UPSTREAM_CONNECT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe(
      'how long opening a connection to a service may take; a request whose connection was refused or never opened is sent again to another address, a POST too when its body is at most 64 KiB',
    ),
  UPSTREAM_RESPONSE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(30_000)
    .describe(
      "how long a service's response may take once the request is sent (504 past it), for writes and for the reads of slow routes (git, package files, merge request diffs, avatars)",
    ),
  UPSTREAM_READ_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(5000)
    .describe("how long a service's response to a GET or HEAD may take once the request is sent (504 past it), except on slow routes"),
  UPSTREAM_FAILURES_TO_OPEN: z.coerce.number().int().min(1).default(5).describe("consecutive failures that open an address's circuit"),
  UPSTREAM_HALF_OPEN_AFTER_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe("how long an address's open circuit fails fast before one request tries it again"),
  DRAIN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10_000)
    .describe(
      'on SIGTERM: readiness turns 503, requests keep being answered on connections closed after them, the listener closes at half this time at the latest, and requests still running at its end are cut',
    ),
  // Behind a load balancer or ingress, client addresses are only right once it is named.
  TRUSTED_PROXIES: setByDeployment(listFromEnv.default([])).describe(
    "proxies in front of the gateway whose X-Forwarded-For/-Proto are believed: addresses, CIDR subnets or express's `loopback`, `linklocal`, `uniquelocal`, comma-separated; none by default",
  ),
  IDENTITY_GRPC_ADDRESS: grpcAddressFromEnv
    .default('127.0.0.1:50051')
    .describe(
      "identity's gRPC address, or its replicas' IPv4 addresses comma-separated (calls are balanced round-robin, and one that met a replica going away is sent again)",
    ),
  AUTH_CACHE_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10_000)
    .describe(
      "how long an authenticated token is trusted without asking identity again; at most 1 s without `KAFKA_BROKERS`, whose events end a blocked user's or revoked token's access at once",
    ),
  AUTH_CACHE_STALE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(300_000)
    .describe('how long past that a token keeps working while identity cannot be reached'),
  // Without it revocation waits for the cache, so every deployment gives the gateway its brokers.
  KAFKA_BROKERS: setByDeployment(listFromEnv.pipe(z.array(z.string()).min(1)).optional()).describe(
    "comma-separated Kafka bootstrap servers; the gateway reads identity's change events there to drop cached tokens of blocked or demoted users",
  ),
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9._-]*$/)
    .default('')
    .describe('put before every Kafka topic name, so that several platforms can share one cluster'),
});

export type GatewayConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): GatewayConfig => loadConfig(configSchema, env);
