import { z } from 'zod';
import { params } from '@platform/http';
import { FEATURE_FLAG_VERSIONS } from './feature-flag.entity.ts';

const positiveId = () => params.integer().pipe(z.number().positive());

export const featureFlagListQuery = z.object({ id: params.idOrPath(), scope: z.enum(['enabled', 'disabled']).optional() });

export const featureFlagParams = z.object({ id: params.idOrPath(), feature_flag_name: z.string().min(1).max(255) });

const parameters = z.record(z.string(), z.unknown());

const newStrategy = z.object({
  name: z.string().min(1),
  parameters: parameters.default({}),
  user_list_id: positiveId().optional(),
  scopes: z.array(z.object({ environment_scope: z.string() })).default([]),
});

export const createFeatureFlagBody = z.object({
  id: params.idOrPath(),
  name: z.string().min(1),
  version: z.enum(FEATURE_FLAG_VERSIONS).optional(),
  description: z.string().max(255).nullable().optional(),
  active: params.boolean().default(true),
  strategies: z.array(newStrategy).default([]),
});

const changedStrategy = z.object({
  id: positiveId().optional(),
  name: z.string().min(1).optional(),
  parameters: parameters.optional(),
  user_list_id: positiveId().optional(),
  _destroy: params.boolean().optional(),
  scopes: z
    .array(z.object({ id: positiveId().optional(), environment_scope: z.string().optional(), _destroy: params.boolean().optional() }))
    .optional(),
});

export const updateFeatureFlagBody = featureFlagParams.extend({
  name: z.string().min(1).optional(),
  description: z.string().max(255).nullable().optional(),
  active: params.boolean().optional(),
  strategies: z.array(changedStrategy).optional(),
});

export type NewStrategyInput = z.output<typeof newStrategy>;
export type ChangedStrategyInput = z.output<typeof changedStrategy>;

export const userListQuery = z.object({ id: params.idOrPath(), search: z.string().max(255).optional() });

export const userListParams = z.object({ id: params.idOrPath(), iid: positiveId() });

export const createUserListBody = z.object({ id: params.idOrPath(), name: z.string().min(1).max(255), user_xids: z.string() });

export const updateUserListBody = userListParams.extend({ name: z.string().min(1).max(255).optional(), user_xids: z.string().optional() });
