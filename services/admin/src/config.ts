import { z } from 'zod';
import { grpcServerConfig, grpcAddressFromEnv, loadConfig, serviceConfig, setByDeployment } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';
import { parseCipherKey } from './features/ci-variables/value-cipher.ts';

export const configSchema = serviceConfig({ name: 'admin', httpPort: 3006 }).extend({
  ...identityClientConfig.shape,
  ...grpcServerConfig({ port: 50056, purpose: 'where other services read the application settings at their start' }),
  CI_VARIABLES_KEY: z
    .string()
    .refine((value) => parseCipherKey(value) !== undefined, { message: 'must be 64 hex digits or base64 of 32 bytes' })
    .describe(
      'encrypts instance CI/CD variable values and secret application settings at rest (AES-256-GCM): 64 hex digits or base64 of 32 bytes; keep it, values encrypted with a lost key cannot be read',
    ),
  REVIEW_GRPC_ADDRESS: setByDeployment(grpcAddressFromEnv.optional()).describe(
    "review's gRPC address, asked which repository storages administrators may weigh; unset, only `default` exists",
  ),
  MAX_CI_VARIABLES: z.coerce
    .number()
    .int()
    .min(1)
    .default(25)
    .describe("how many instance CI/CD variables may exist (GitLab's `ci_instance_level_variables` plan limit)"),
});

export type AdminConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): AdminConfig => loadConfig(configSchema, env);
