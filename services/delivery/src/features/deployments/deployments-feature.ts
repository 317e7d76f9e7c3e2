import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import { Deployment, DeploymentIid } from './deployment.entity.ts';
import { Environment } from './environment.entity.ts';
import { PgDeploymentStore } from './deployments-store.ts';
import { DeploymentsService } from './deployments-service.ts';
import { deploymentsRoutes } from './deployments-routes.ts';
import { PgEnvironmentStore } from './environments-store.ts';
import { EnvironmentsService } from './environments-service.ts';
import { environmentsRoutes } from './environments-routes.ts';
import type { DeployedMergeRequests, ProjectCommits } from '@platform/review-client';

export const deploymentsEntities = [Environment, Deployment, DeploymentIid];

/** Environments and the deployments to them. */
export function createDeploymentsFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  mergeRequests: DeployedMergeRequests;
  commits: ProjectCommits;
}): Feature {
  const environments = new EnvironmentsService({ em: deps.em, store: new PgEnvironmentStore(deps.em) });
  const deployments = new DeploymentsService({
    em: deps.em,
    store: new PgDeploymentStore(deps.em),
    mergeRequests: deps.mergeRequests,
    commits: deps.commits,
  });
  return {
    routes: [
      createRouter(environmentsRoutes, { access: deps.access, environments }),
      createRouter(deploymentsRoutes, { access: deps.access, deployments }),
    ],
    stop: () => {
      deps.mergeRequests.close();
      deps.commits.close();
    },
  };
}
