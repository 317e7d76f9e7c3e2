import { z } from 'zod';
import { loadConfig, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';

export const configSchema = serviceConfig({ name: 'alerts', httpPort: 3005 }).extend({
  ...identityClientConfig.shape,
  ALERTS_TIER: z
    .enum(['free', 'premium'])
    .default('premium')
    .describe(
      '`premium`: several HTTP alert endpoints per project and grouping of payloads into open alerts; `free`: one generic endpoint, an alert per payload',
    ),
});

export type AlertsConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): AlertsConfig => loadConfig(configSchema, env);
