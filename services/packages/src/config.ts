import { z } from 'zod';
import { loadConfig, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';

export const configSchema = serviceConfig({ name: 'packages', httpPort: 3003 }).extend({
  ...identityClientConfig.shape,
  /** Where package files are kept (below it, `files/`), written whole before they become visible. */
  DATA_DIR: z.string().startsWith('/').default('/var/lib/collab-platform/packages'),
  /** The largest package file accepted, in bytes; an npm publish's JSON body may be a third larger (base64). */
  MAX_PACKAGE_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * 1024 * 1024),
});

export type PackagesConfig = z.infer<typeof configSchema>;

export const readConfig = (env: Record<string, string | undefined> = process.env): PackagesConfig => loadConfig(configSchema, env);
