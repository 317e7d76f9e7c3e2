import type { EntityManager, Orm } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import type { AccessPolicy } from '../access/access-policy.ts';
import { DeployToken } from './deploy-token.entity.ts';
import { PgDeployTokenStore } from './deploy-tokens-store.ts';
import { DeployTokensService } from './deploy-tokens-service.ts';
import { deployTokensGrpc } from './deploy-tokens-grpc.ts';
import { deployTokensRoutes } from './deploy-tokens-routes.ts';

export const deployTokensEntities = [DeployToken];

/** Deploy tokens of projects and groups, the instance's list of them, and their authentication for the gateway. */
export function createDeployTokensFeature(deps: { em: EntityManager; orm: Orm; access: AccessPolicy; logger: Logger }): Feature {
  const deployTokens = new DeployTokensService({ em: deps.em, tokens: new PgDeployTokenStore(deps.em), access: deps.access });
  return {
    routes: [createRouter(deployTokensRoutes, { deployTokens })],
    rpcs: [deployTokensGrpc({ orm: deps.orm, deployTokens, logger: deps.logger })],
  };
}
