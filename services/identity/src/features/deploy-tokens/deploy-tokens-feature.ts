import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { AccessPolicy } from '../access/access-policy.ts';
import { DeployToken } from './deploy-token.entity.ts';
import { PgDeployTokenStore } from './deploy-tokens-store.ts';
import { DeployTokensService } from './deploy-tokens-service.ts';
import { deployTokensRoutes } from './deploy-tokens-routes.ts';

export const deployTokensEntities = [DeployToken];

/** Deploy tokens of projects and groups, and the instance's list of them. */
export function createDeployTokensFeature(deps: { em: EntityManager; access: AccessPolicy }): Feature {
  const deployTokens = new DeployTokensService({ em: deps.em, tokens: new PgDeployTokenStore(deps.em), access: deps.access });
  return { routes: [createRouter(deployTokensRoutes, { deployTokens })] };
}
