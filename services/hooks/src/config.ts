import { z } from 'zod';
import { adminClientConfig } from '@platform/admin-client';
import { grpcAddressFromEnv, loadConfig, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';

export const configSchema = serviceConfig({ name: 'hooks', httpPort: 3008 })
  .extend(identityClientConfig.shape)
  .extend(adminClientConfig.shape)
  .extend({
    REVIEW_GRPC_ADDRESS: grpcAddressFromEnv
      .default('127.0.0.1:50052')
      .describe("review's gRPC address, asked for a commit that a comment or a pipeline is on when no push described it"),
    WEBHOOK_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .default(10_000)
      .describe("how long a webhook's receiver has to answer before the delivery is recorded as failed (GitLab's `webhook_timeout`)"),
    GITLAB_VERSION: z
      .string()
      .min(1)
      .default('18.6.0')
      .describe('the GitLab version webhooks announce in their `User-Agent: GitLab/<version>` header'),
  });

export type HooksConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): HooksConfig => loadConfig(configSchema, env);
