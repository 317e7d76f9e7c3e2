import { z } from 'zod';
import { grpcAddressFromEnv, loadConfig, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';

export const configSchema = serviceConfig({ name: 'delivery', httpPort: 3004 }).extend({
  ...identityClientConfig.shape,
  REVIEW_GRPC_ADDRESS: grpcAddressFromEnv
    .default('127.0.0.1:50052')
    .describe("review's gRPC address, asked whether a deployment's sha and ref name commits and which merge requests it shipped"),
});

export type DeliveryConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): DeliveryConfig => loadConfig(configSchema, env);
