import path from 'node:path';
import { z } from 'zod';
import { grpcServerConfig, listFromEnv, loadConfig, serviceConfig } from '@platform/config';
import { identityClientConfig } from '@platform/identity-client';
import { adminClientConfig } from '@platform/admin-client';

const STORAGE_NAME = /^[a-z0-9_-]+$/;

/** `name=directory` pairs, comma-separated: `default=/srv/repos,fast=/mnt/ssd/repos`. */
const storagesFromEnv = listFromEnv.pipe(
  z
    .array(z.string().regex(/^[a-z0-9_-]+=\/.+$/, 'each storage is name=/absolute/directory'))
    .transform((pairs) => Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])))
    .refine((storages) => Object.keys(storages).every((name) => STORAGE_NAME.test(name)), 'storage names are [a-z0-9_-]'),
);

export const configSchema = serviceConfig({ name: 'review', httpPort: 3002 }).extend({
  ...identityClientConfig.shape,
  ...adminClientConfig.shape,
  ...grpcServerConfig({ port: 50052, purpose: 'where delivery asks which merge requests a deployment shipped' }),
  DATA_DIR: z
    .string()
    .startsWith('/')
    .default('/var/lib/collab-platform/review')
    .describe('where review keeps files; the `default` repository storage is `DATA_DIR/repositories` unless listed'),
  REPOSITORY_STORAGES: storagesFromEnv
    .optional()
    .describe('named repository storages, `name=/directory,name=/directory`; `default` is added under `DATA_DIR` when not listed'),
});

type ParsedConfig = z.infer<typeof configSchema>;

export type ReviewConfig = Omit<ParsedConfig, 'REPOSITORY_STORAGES'> & {
  /** Storage name -> directory; always has `default`. */
  REPOSITORY_STORAGES: Record<string, string>;
};

export function readConfig(env: Record<string, string | undefined> = process.env): ReviewConfig {
  const config = loadConfig(configSchema, env);
  return {
    ...config,
    REPOSITORY_STORAGES: { default: path.join(config.DATA_DIR, 'repositories'), ...config.REPOSITORY_STORAGES },
  };
}
