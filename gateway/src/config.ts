import { z } from 'zod';
import { loadConfig } from '@platform/config';

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(
    {
      PORT: z.coerce.number().int().min(0).max(65535).default(8080),
      /** Where each service's HTTP API listens. */
      IDENTITY_URL: z.url().default('http://127.0.0.1:3001'),
      AUDIT_URL: z.url().default('http://127.0.0.1:3007'),
      /** Identity's gRPC address, for token authentication. */
      IDENTITY_GRPC_ADDRESS: z.string().default('127.0.0.1:50051'),
      /** Signs the caller forwarded to services; each service holds the same secret. */
      INTERNAL_SECRET: z.string().min(16),
      /** How long an authenticated token is trusted without asking identity again. */
      AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(10_000),
      LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    },
    env,
  );
}

export type GatewayConfig = ReturnType<typeof readConfig>;
