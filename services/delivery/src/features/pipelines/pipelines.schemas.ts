import { z } from 'zod';
import { params } from '@platform/http';

const positiveId = () => params.integer().pipe(z.number().positive());

export const PIPELINE_ORDERS = ['id', 'status', 'ref', 'updated_at', 'user_id'] as const;
export const PIPELINE_SCOPES = ['running', 'pending', 'finished', 'branches', 'tags'] as const;
/** Every status GitLab filters by; those no external pipeline reaches match none. */
export const PIPELINE_STATUS_FILTERS = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;

export const pipelineListQuery = z.object({
  id: params.idOrPath(),
  scope: z.enum(PIPELINE_SCOPES).optional(),
  status: z.enum(PIPELINE_STATUS_FILTERS).optional(),
  ref: params.string().optional(),
  sha: params.string().optional(),
  yaml_errors: params.boolean().optional(),
  username: params.string().optional(),
  updated_after: params.datetime().optional(),
  updated_before: params.datetime().optional(),
  source: params.string().optional(),
});

export const pipelineParams = z.object({ id: params.idOrPath(), pipeline_id: positiveId() });
