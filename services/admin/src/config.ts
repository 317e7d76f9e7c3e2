import { z } from 'zod';
import { loadConfig, portFromEnv, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';

export const configSchema = serviceConfig({ name: 'admin', httpPort: 3006 }).extend({
  ...identityClientConfig.shape,
  /** Other services read the application settings here at their start. */
  GRPC_PORT: portFromEnv(50056),
  /** Loopback by default; 0.0.0.0 where other hosts (pods, containers) read the settings. */
  GRPC_HOST: z.string().min(1).default('127.0.0.1'),
});

export type AdminConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): AdminConfig => loadConfig(configSchema, env);
