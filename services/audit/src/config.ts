import { z } from 'zod';
import { loadConfig, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';

export const configSchema = serviceConfig({ name: 'audit', httpPort: 3007 })
  .extend(identityClientConfig.shape)
  .extend({
    ACTIVITY_ACCESS_CACHE_TTL_MS: z.coerce
      .number()
      .int()
      .min(0)
      .default(10_000)
      .describe("how long identity's answer on whether a caller may see a project is reused for activity lists"),
    ACTIVITY_RETENTION_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .default(60 * 60 * 1000)
      .describe('how often activity events older than two years are removed'),
  });

export type AuditConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): AuditConfig => loadConfig(configSchema, env);
