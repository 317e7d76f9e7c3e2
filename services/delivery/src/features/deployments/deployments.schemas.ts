import { z } from 'zod';
import { pageShape, params } from '@platform/http';
import { DEPLOYMENT_STATUSES } from './deployment.entity.ts';
import { ENVIRONMENT_STATES, ENVIRONMENT_TIERS } from './environment.entity.ts';

const positiveId = () => params.integer().pipe(z.number().positive());

export const DEPLOYMENT_ORDERS = ['id', 'iid', 'created_at', 'updated_at', 'ref'] as const;

export const deploymentListQuery = z.object({
  id: params.idOrPath(),
  updated_after: params.datetime().optional(),
  updated_before: params.datetime().optional(),
  environment: params.string().optional(),
  status: z.enum(DEPLOYMENT_STATUSES).optional(),
});

export const deploymentParams = z.object({ id: params.idOrPath(), deployment_id: positiveId() });

/**
 * The merge request list parameters a deployment's merge requests take, as GitLab's merge request
 * lists take them; review validates them again and applies them.
 */
export const deploymentMergeRequestsListShape = {
  state: z.enum(['opened', 'closed', 'locked', 'merged', 'all']).optional(),
  order_by: z.enum(['created_at', 'updated_at', 'title']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  view: z.enum(['simple']).optional(),
  labels: z.string().max(1024).optional(),
  author_id: params.integer().optional(),
  author_username: z.string().max(255).optional(),
  search: z.string().max(255).optional(),
  created_after: params.datetime().optional(),
  created_before: params.datetime().optional(),
  updated_after: params.datetime().optional(),
  updated_before: params.datetime().optional(),
  ...pageShape,
};

export const deploymentMergeRequestsQuery = deploymentParams.extend(deploymentMergeRequestsListShape);

/** GitLab creates deployments only in these statuses; `created` comes from pipelines, which do not run here. */
export const CREATE_STATUSES = ['running', 'success', 'failed', 'canceled'] as const;

export const createDeploymentBody = z.object({
  id: params.idOrPath(),
  environment: z.string().min(1).max(255),
  sha: z.string().min(1).max(255),
  ref: z.string().min(1).max(255),
  tag: params.boolean(),
  status: z.enum(CREATE_STATUSES),
});

export const updateDeploymentBody = deploymentParams.extend({ status: z.enum(DEPLOYMENT_STATUSES) });

/** A URL GitLab accepts for an environment: http(s) only, at most 255 characters. */
const externalUrl = () =>
  z
    .string()
    .max(255)
    .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), {
      message: 'is blocked: Only allowed schemes are http, https',
    });

export const environmentListQuery = z.object({
  id: params.idOrPath(),
  name: params.string().optional(),
  search: z.string().min(3).max(255).optional(),
  states: z.enum(ENVIRONMENT_STATES).optional(),
});

export const environmentParams = z.object({ id: params.idOrPath(), environment_id: positiveId() });

export const createEnvironmentBody = z.object({
  id: params.idOrPath(),
  name: z.string().min(1),
  external_url: externalUrl().optional(),
  tier: z.enum(ENVIRONMENT_TIERS).optional(),
});

export const updateEnvironmentBody = environmentParams.extend({
  external_url: externalUrl().nullable().optional(),
  tier: z.enum(ENVIRONMENT_TIERS).optional(),
});

export const stopEnvironmentBody = environmentParams.extend({ force: params.boolean().default(false) });
