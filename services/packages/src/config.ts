import { z } from 'zod';
import { loadConfig, portFromEnv, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';

export const configSchema = serviceConfig({ name: 'packages', httpPort: 3003 }).extend({
  ...identityClientConfig.shape,
  /** Other services ask here which projects have container registry tags (identity, before moving a project's path). */
  GRPC_PORT: portFromEnv(50053),
  /** Loopback by default; 0.0.0.0 where other hosts (pods, containers) call it. */
  GRPC_HOST: z.string().min(1).default('127.0.0.1'),
  /** Where package files are kept (below it, `files/`), written whole before they become visible. */
  DATA_DIR: z.string().startsWith('/').default('/var/lib/collab-platform/packages'),
  /** The largest package file accepted, in bytes; an npm publish's JSON body may be a third larger (base64). */
  MAX_PACKAGE_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * 1024 * 1024),
  /** The container registry's API as this service reaches it (reading manifests, deleting tags). */
  REGISTRY_URL: z.url().default('http://127.0.0.1:5000'),
  /** The registry's address as users see it: `<host>/<project path>` names images. */
  REGISTRY_PUBLIC_HOST: z.string().min(1).default('127.0.0.1:5000'),
  /**
   * PEM private key that signs registry tokens; the registry trusts its certificate
   * (`rootcertbundle`). A key generated at start when unset, whose tokens no registry trusts.
   */
  REGISTRY_TOKEN_KEY_FILE: z.string().startsWith('/').optional(),
  /** The registry's `auth.token.issuer` and `service`. */
  REGISTRY_TOKEN_ISSUER: z.string().min(1).default('gitlab-issuer'),
  REGISTRY_SERVICE: z.string().min(1).default('container_registry'),
  /** How long a registry token is good for (GitLab: 5 minutes). */
  REGISTRY_TOKEN_EXPIRY_SECONDS: z.coerce.number().int().min(60).default(300),
  /** What the registry's notifications carry as `Authorization`; without it, notifications are refused. */
  REGISTRY_NOTIFICATION_SECRET: z.string().min(16).optional(),
});

export type PackagesConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): PackagesConfig => loadConfig(configSchema, env);
