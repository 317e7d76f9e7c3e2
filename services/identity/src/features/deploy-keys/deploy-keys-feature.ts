import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { AccessPolicy } from '../access/access-policy.ts';
import { DeployKey, DeployKeyProject } from './deploy-key.entity.ts';
import { PgDeployKeyStore } from './deploy-keys-store.ts';
import { DeployKeysService } from './deploy-keys-service.ts';
import { deployKeysRoutes } from './deploy-keys-routes.ts';

export const deployKeysEntities = [DeployKey, DeployKeyProject];

/** Deploy keys of projects, and the instance's. */
export function createDeployKeysFeature(deps: { em: EntityManager; access: AccessPolicy }): Feature {
  const deployKeys = new DeployKeysService({ em: deps.em, keys: new PgDeployKeyStore(deps.em), access: deps.access });
  return { routes: [createRouter(deployKeysRoutes, { deployKeys })] };
}
