import { z } from 'zod';
import { grpcServerConfig, grpcAddressFromEnv, loadConfig, serviceConfig, setByDeployment } from '@platform/config';
import { adminClientConfig } from '@platform/admin-client';
import { packagesClientConfig } from '@platform/packages-client';

export const configSchema = serviceConfig({ name: 'identity', httpPort: 3001 }).extend({
  ...adminClientConfig.shape,
  ...packagesClientConfig.shape,
  REVIEW_GRPC_ADDRESS: setByDeployment(grpcAddressFromEnv.optional()).describe(
    "review's gRPC address, asked to create a new project's repository (the answer shows its storage); unset, review creates it from the project's event",
  ),
  ...grpcServerConfig({ port: 50051, purpose: 'for token authentication, access checks, project and group lookups' }),
  ROOT_TOKEN: z
    .string()
    .min(20)
    .optional()
    .describe('token of the bootstrap administrator `root` (20+ characters); generated and printed once to the log when unset'),
  // Images know the revision they were built from; only the deployment can say it.
  PLATFORM_REVISION: setByDeployment(z.string().min(1).max(64).default('Unknown')).describe(
    "the source revision the platform was built from, reported by `GET /version` (GitLab's default: `Unknown`)",
  ),
  DATA_DIR: z
    .string()
    .startsWith('/')
    .default('/var/lib/collab-platform/identity')
    .describe('where identity keeps files: uploaded avatars under `DATA_DIR/uploads`; replicas share it (a ReadWriteMany volume)'),
  REGISTRY_PUBLIC_HOST: z
    .string()
    .min(1)
    .optional()
    .describe(
      "the container registry's host as users see it, in projects' `container_registry_image_prefix`; the platform's host when unset",
    ),
  PROJECT_DELETION_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(60_000)
    .describe('how often projects marked for deletion longer ago than `deletion_adjourned_period` days are deleted'),
});

export type IdentityConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): IdentityConfig => loadConfig(configSchema, env);
