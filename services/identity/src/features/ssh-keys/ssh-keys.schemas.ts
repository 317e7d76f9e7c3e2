import { z } from 'zod';
import { params } from '@platform/http';
import { SSH_KEY_USAGE_TYPES } from './ssh-key.entity.ts';

/** Generous bounds at the edge; GitLab's own limits are field errors in the service. */
export const addSshKeyParams = z.object({
  title: z.string().max(1000),
  key: z.string().max(20_000),
  expires_at: params.datetime().optional(),
  usage_type: z.enum(SSH_KEY_USAGE_TYPES).optional(),
});
export type AddSshKeyParams = z.output<typeof addSshKeyParams>;
