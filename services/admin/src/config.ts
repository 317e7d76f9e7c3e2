import { z } from 'zod';
import { loadConfig, portFromEnv, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';
import { parseCipherKey } from './features/ci-variables/value-cipher.ts';

export const configSchema = serviceConfig({ name: 'admin', httpPort: 3006 }).extend({
  ...identityClientConfig.shape,
  /** Other services read the application settings here at their start. */
  GRPC_PORT: portFromEnv(50056),
  /** Loopback by default; 0.0.0.0 where other hosts (pods, containers) read the settings. */
  GRPC_HOST: z.string().min(1).default('127.0.0.1'),
  /** Encrypts instance CI/CD variable values at rest (AES-256-GCM): 64 hex digits or base64 of 32 bytes. */
  CI_VARIABLES_KEY: z
    .string()
    .refine((value) => parseCipherKey(value) !== undefined, { message: 'must be 64 hex digits or base64 of 32 bytes' }),
  /** How many instance CI/CD variables may exist (GitLab's `ci_instance_level_variables` plan limit). */
  MAX_CI_VARIABLES: z.coerce.number().int().min(1).default(25),
});

export type AdminConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): AdminConfig => loadConfig(configSchema, env);
