import { z } from 'zod';
import { listFromEnv, loadConfig } from '@platform/config';

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(
    {
      HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
      GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50051),
      /** This service's own database. */
      DATABASE_URL: z.url(),
      KAFKA_BROKERS: listFromEnv.pipe(z.array(z.string()).min(1)),
      /** Put before every Kafka topic name, so that several platforms can share one cluster. */
      KAFKA_TOPIC_PREFIX: z
        .string()
        .regex(/^[a-zA-Z0-9._-]*$/)
        .default(''),
      /** Shared with the gateway, which signs the caller of every request with it. */
      INTERNAL_SECRET: z.string().min(16),
      /** The public base URL of the platform, for `web_url` fields. */
      EXTERNAL_URL: z.url().default('http://localhost:8080'),
      /** Token of the bootstrap administrator; generated and printed once when unset. */
      ROOT_TOKEN: z.string().min(20).optional(),
      LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    },
    env,
  );
}

export type IdentityConfig = ReturnType<typeof readConfig>;
