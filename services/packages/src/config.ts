import { z } from 'zod';
import { grpcServerConfig, loadConfig, serviceConfig, setByDeployment } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';

export const configSchema = serviceConfig({ name: 'packages', httpPort: 3003 }).extend({
  ...identityClientConfig.shape,
  ...grpcServerConfig({ port: 50053, purpose: 'where identity asks which projects have container registry tags' }),
  DATA_DIR: z
    .string()
    .startsWith('/')
    .default('/var/lib/collab-platform/packages')
    .describe('where package files are kept (`files/`), each written whole before it becomes visible'),
  MAX_PACKAGE_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * 1024 * 1024)
    .describe("the largest package file accepted, in bytes; an npm publish's JSON body may be a third larger (base64)"),
  REGISTRY_URL: z
    .url()
    .default('http://127.0.0.1:5000')
    .describe("the container registry's API as this service reaches it (reading manifests, deleting tags)"),
  REGISTRY_PUBLIC_HOST: z
    .string()
    .min(1)
    .default('127.0.0.1:5000')
    .describe("the container registry's host as users see it: `<host>/<project path>` names images"),
  REGISTRY_TOKEN_KEY_FILE: z
    .string()
    .startsWith('/')
    .optional()
    .describe(
      'PEM private key that signs registry tokens, whose certificate the registry trusts (`rootcertbundle`); unset, a key generated at start whose tokens no registry trusts',
    ),
  REGISTRY_TOKEN_ISSUER: z.string().min(1).default('gitlab-issuer').describe("the registry's `auth.token.issuer`"),
  REGISTRY_SERVICE: z.string().min(1).default('container_registry').describe("the registry's `auth.token.service`"),
  REGISTRY_TOKEN_EXPIRY_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(300)
    .describe("how long a registry token is good for (GitLab's 5 minutes)"),
  REGISTRY_NOTIFICATION_SECRET: setByDeployment(z.string().min(16).optional()).describe(
    "what the registry's notifications carry as `Authorization`; unset, notifications are refused",
  ),
});

export type PackagesConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): PackagesConfig => loadConfig(configSchema, env);
