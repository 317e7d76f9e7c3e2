import { z } from 'zod';
import { params } from '@platform/http';

export const TOKEN_SCOPES = [
  'api',
  'read_api',
  'read_user',
  'create_runner',
  'manage_runner',
  'k8s_proxy',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'read_virtual_registry',
  'write_virtual_registry',
  'sudo',
  'admin_mode',
  'read_service_ping',
  'self_rotate',
] as const;

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
