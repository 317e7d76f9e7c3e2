import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import { CiVariable } from './ci-variable.entity.ts';
import { ciVariablesRoutes } from './ci-variables-routes.ts';
import { CiVariablesService } from './ci-variables-service.ts';
import { PgCiVariableStore } from './ci-variables-store.ts';
import type { ValueCipher } from './value-cipher.ts';

export const ciVariablesEntities = [CiVariable];

/** Instance-level CI/CD variables, for administrators. */
export function createCiVariablesFeature(deps: { em: EntityManager; cipher: ValueCipher; limit: number }): Feature {
  const variables = new CiVariablesService({ em: deps.em, store: new PgCiVariableStore(deps.em), cipher: deps.cipher, limit: deps.limit });
  return { routes: [createRouter(ciVariablesRoutes, { variables })] };
}
