import type { z } from 'zod';
import { loadConfig, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';

export const configSchema = serviceConfig({ name: 'audit', httpPort: 3007 }).extend(identityClientConfig.shape);

export type AuditConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): AuditConfig => loadConfig(configSchema, env);
