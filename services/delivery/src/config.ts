import type { z } from 'zod';
import { loadConfig, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';

export const configSchema = serviceConfig({ name: 'delivery', httpPort: 3004 }).extend(identityClientConfig.shape);

export type DeliveryConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): DeliveryConfig => loadConfig(configSchema, env);
