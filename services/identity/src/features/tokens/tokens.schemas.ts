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
