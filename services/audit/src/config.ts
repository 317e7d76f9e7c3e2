import { z } from 'zod';
import { listFromEnv, loadConfig } from '@platform/config';

export function readConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfig(
    {
      HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(3007),
      /** This service's own database. */
      DATABASE_URL: z.url(),
      KAFKA_BROKERS: listFromEnv.pipe(z.array(z.string()).min(1)),
      /** Put before every Kafka topic name, so that several platforms can share one cluster. */
      KAFKA_TOPIC_PREFIX: z
        .string()
        .regex(/^[a-zA-Z0-9._-]*$/)
        .default(''),
      /** Consumer group of this service; every replica shares it. */
      KAFKA_GROUP_ID: z.string().min(1).default('audit'),
      /** Shared with the gateway, which signs the caller of every request with it. */
      INTERNAL_SECRET: z.string().min(16),
      /** Identity's gRPC API, which resolves groups and projects and checks callers' access to them. */
      IDENTITY_GRPC_ADDRESS: z.string().min(1).default('127.0.0.1:50051'),
      LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    },
    env,
  );
}

export type AuditConfig = ReturnType<typeof readConfig>;
