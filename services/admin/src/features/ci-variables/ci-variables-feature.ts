import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import { CiVariable } from './ci-variable.entity.ts';
import { ciVariablesRoutes, groupVariablesRoutes, projectVariablesRoutes } from './ci-variables-routes.ts';
import { CiVariablesService } from './ci-variables-service.ts';
import { PgCiVariableStore } from './ci-variables-store.ts';
import type { ValueCipher } from './value-cipher.ts';

export const ciVariablesEntities = [CiVariable];

/** CI/CD variables: the instance's for administrators, a project's or group's for its maintainers. */
export function createCiVariablesFeature(deps: { em: EntityManager; cipher: ValueCipher; limit: number; access: IdentityAccess }): Feature {
  const variables = new CiVariablesService({ em: deps.em, store: new PgCiVariableStore(deps.em), cipher: deps.cipher, limit: deps.limit });
  const routeDeps = { variables, access: deps.access };
  return {
    routes: [
      createRouter(ciVariablesRoutes, routeDeps),
      createRouter(projectVariablesRoutes, routeDeps),
      createRouter(groupVariablesRoutes, routeDeps),
    ],
  };
}
