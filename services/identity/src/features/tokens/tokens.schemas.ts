import { z } from 'zod';
import { TOKEN_SCOPES } from '@platform/auth';
import { params } from '@platform/http';

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

export const createTokenParams = z.object({
  user_id: params.integer(),
  name: z.string().min(1).max(255),
  description: z.string().max(255).optional(),
  scopes: z.preprocess((value) => (typeof value === 'string' ? value.split(',') : value), z.array(z.enum(TOKEN_SCOPES)).min(1)),
  expires_at: z
    .string()
    .regex(datePattern)
    .refine((value) => !Number.isNaN(Date.parse(value)), 'is invalid')
    .optional(),
});
export type CreateTokenParams = z.output<typeof createTokenParams>;

/** The only scopes a user may give a token through `POST /user/personal_access_tokens`, as GitLab. */
export const SELF_SERVICE_SCOPES = ['k8s_proxy', 'self_rotate'] as const;

export const createOwnTokenParams = z.object({
  name: z.string().min(1).max(255),
  description: z.string().max(255).optional(),
  scopes: z.preprocess((value) => (typeof value === 'string' ? value.split(',') : value), z.array(z.enum(SELF_SERVICE_SCOPES)).min(1)),
  expires_at: createTokenParams.shape.expires_at,
});
export type CreateOwnTokenParams = z.output<typeof createOwnTokenParams>;

export const tokenListParams = z.object({
  user_id: params.integer().optional(),
  state: z.enum(['active', 'inactive']).optional(),
  revoked: params.boolean().optional(),
  created_before: params.datetime().optional(),
  created_after: params.datetime().optional(),
  last_used_before: params.datetime().optional(),
  last_used_after: params.datetime().optional(),
  search: z.string().max(255).optional(),
});
export type TokenListParams = z.output<typeof tokenListParams>;

export const tokenIdParams = z.object({ id: params.integer() });

export const rotateTokenParams = z.object({ expires_at: createTokenParams.shape.expires_at });
export const rotateTokenByIdParams = tokenIdParams.extend(rotateTokenParams.shape);

export const impersonationTokenListParams = z.object({
  user_id: params.integer(),
  state: z.enum(['all', 'active', 'inactive']).default('all'),
});

/** GitLab's impersonation tokens take any scope; a token without one is refused. */
export const createImpersonationTokenParams = z.object({
  user_id: params.integer(),
  name: z.string().min(1).max(255),
  description: z.string().max(255).optional(),
  scopes: createTokenParams.shape.scopes,
  expires_at: createTokenParams.shape.expires_at,
});

export const impersonationTokenParams = z.object({ user_id: params.integer(), impersonation_token_id: params.integer() });
