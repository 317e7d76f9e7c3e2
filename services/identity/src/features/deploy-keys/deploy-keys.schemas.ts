import { z } from 'zod';
import { params } from '@platform/http';

export const deployKeyListParams = z.object({ public: params.boolean().default(false) });

const newKey = {
  key: z.string().max(5000),
  title: z.string().min(1).max(255),
  expires_at: params.datetime().optional(),
};

export const createInstanceDeployKeyParams = z.object(newKey);

export const projectDeployKeyListParams = z.object({ id: params.idOrPath() });

export const projectDeployKeyParams = z.object({ id: params.idOrPath(), key_id: params.integer() });

export const addDeployKeyParams = z.object({ id: params.idOrPath(), ...newKey, can_push: params.boolean().optional() });

export const updateDeployKeyParams = projectDeployKeyParams
  .extend({ title: z.string().min(1).max(255).optional(), can_push: params.boolean().optional() })
  .superRefine((input, context) => {
    if (input.title === undefined && input.can_push === undefined) {
      context.addIssue({ code: 'custom', path: ['title, can_push'], message: 'are missing, at least one parameter must be provided' });
    }
  });
