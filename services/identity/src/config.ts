import { z } from 'zod';
import { loadConfig, portFromEnv, serviceConfig } from '@platform/config';
import { adminClientConfig } from '@platform/admin-client';
import { packagesClientConfig } from '@platform/packages-client';

export const configSchema = serviceConfig({ name: 'identity', httpPort: 3001 }).extend({
  ...adminClientConfig.shape,
  ...packagesClientConfig.shape,
  GRPC_PORT: portFromEnv(50051),
  /** Interface the gRPC server binds: loopback unless other hosts must reach it (`0.0.0.0` in a cluster). */
  GRPC_HOST: z.string().min(1).default('127.0.0.1'),
  /** Token of the bootstrap administrator; generated and printed once when unset. */
  ROOT_TOKEN: z.string().min(20).optional(),
  /** The source revision the platform was built from, reported by `GET /version` (GitLab: `Unknown`). */
  PLATFORM_REVISION: z.string().min(1).max(64).default('Unknown'),
  /** Where the service keeps files: avatars under `uploads/`. Replicas share it (a ReadWriteMany volume). */
  DATA_DIR: z.string().startsWith('/').default('/var/lib/collab-platform/identity'),
  /** The container registry's host as users see it, in projects' `container_registry_image_prefix`; the platform's host when unset. */
  REGISTRY_PUBLIC_HOST: z.string().min(1).optional(),
  /** How often projects marked for deletion longer ago than `deletion_adjourned_period` days are deleted. */
  PROJECT_DELETION_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
});

export type IdentityConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): IdentityConfig => loadConfig(configSchema, env);
