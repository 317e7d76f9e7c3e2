import { z } from 'zod';
import { dateParam, params } from '@platform/http';
import { ACCESS_LEVEL } from '@platform/identity-client';

/** The scopes GitLab gives a project's or group's bot (`Gitlab::Auth.resource_bot_scopes`). */
export const RESOURCE_BOT_SCOPES = [
  'api',
  'read_api',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'read_virtual_registry',
  'write_virtual_registry',
  'create_runner',
  'manage_runner',
  'k8s_proxy',
  'self_rotate',
] as const;

const ACCESS_LEVELS: readonly number[] = [
  ACCESS_LEVEL.GUEST,
  ACCESS_LEVEL.REPORTER,
  ACCESS_LEVEL.DEVELOPER,
  ACCESS_LEVEL.MAINTAINER,
  ACCESS_LEVEL.OWNER,
];

export const resourceAccessTokenListParams = z.object({
  id: params.idOrPath(),
  state: z.enum(['active', 'inactive']).optional(),
});

export const resourceAccessTokenParams = z.object({ id: params.idOrPath(), token_id: params.integer() });

export const createResourceAccessTokenParams = z.object({
  id: params.idOrPath(),
  name: z.string().min(1).max(255),
  description: z.string().max(255).optional(),
  scopes: z.preprocess((value) => (typeof value === 'string' ? value.split(',') : value), z.array(z.enum(RESOURCE_BOT_SCOPES)).min(1)),
  expires_at: dateParam().optional(),
  // Maintainer unless named, as GitLab's.
  access_level: params
    .integer()
    .refine((level) => ACCESS_LEVELS.includes(level), { message: 'does not have a valid value' })
    .default(ACCESS_LEVEL.MAINTAINER),
});
export type CreateResourceAccessTokenParams = z.output<typeof createResourceAccessTokenParams>;

export const rotateResourceAccessTokenParams = resourceAccessTokenParams.extend({ expires_at: dateParam().optional() });
