import { z } from 'zod';
import { listFromEnv } from './load-config.ts';

/** A TCP port to listen on; 0 picks a free one. */
export const portFromEnv = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const logLevelFromEnv = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** What every process of the platform reads, the gateway included. */
export const platformConfig = z.object({
  /** Shared by the gateway, which signs the caller of every request with it, and every service. */
  INTERNAL_SECRET: z.string().min(16),
  LOG_LEVEL: logLevelFromEnv,
});

/**
 * What every service reads; a service's `config.ts` extends it with its own keys:
 * `serviceConfig({ name: 'audit', httpPort: 3007 }).extend({ ... })`.
 */
export function serviceConfig(options: { name: string; httpPort: number }) {
  return platformConfig.extend({
    HTTP_PORT: portFromEnv(options.httpPort),
    /** This service's own database. */
    DATABASE_URL: z.url(),
    KAFKA_BROKERS: listFromEnv.pipe(z.array(z.string()).min(1)),
    /** Put before every Kafka topic name, so that several platforms can share one cluster. */
    KAFKA_TOPIC_PREFIX: z
      .string()
      .regex(/^[a-zA-Z0-9._-]*$/)
      .default(''),
    /** The public base URL of the platform: `web_url` fields and pagination links are built from it. */
    EXTERNAL_URL: z.url().default('http://localhost:8080'),
    /** Consumer group of this service's event consumers; every replica shares it. */
    KAFKA_GROUP_ID: z.string().min(1).default(options.name),
  });
}

/** The configuration every service has, whatever it adds. */
export type ServiceConfig = z.infer<ReturnType<typeof serviceConfig>>;
