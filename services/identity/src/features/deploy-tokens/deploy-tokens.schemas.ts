import { z } from 'zod';
import { params } from '@platform/http';

/** GitLab's deploy token scopes (`DeployToken::AVAILABLE_SCOPES`). */
export const DEPLOY_TOKEN_SCOPES = [
  'read_repository',
  'read_registry',
  'write_registry',
  'read_package_registry',
  'write_package_registry',
  'read_virtual_registry',
  'write_virtual_registry',
] as const;

export const deployTokenListParams = z.object({ active: params.boolean().optional() });

export const ownedDeployTokenListParams = deployTokenListParams.extend({ id: params.idOrPath() });

export const deployTokenParams = z.object({ id: params.idOrPath(), token_id: params.integer() });

export const createDeployTokenParams = z.object({
  id: params.idOrPath(),
  name: z.string().min(1).max(255),
  scopes: z.preprocess((value) => (typeof value === 'string' ? value.split(',') : value), z.array(z.enum(DEPLOY_TOKEN_SCOPES)).min(1)),
  expires_at: params.datetime().optional(),
  username: z.string().max(255).optional(),
});
export type CreateDeployTokenParams = z.output<typeof createDeployTokenParams>;
