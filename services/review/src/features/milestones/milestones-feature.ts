import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import { Milestone } from './milestone.entity.ts';
import { PgMilestoneStore } from './milestones-store.ts';
import { MilestonesService } from './milestones-service.ts';
import { milestonesRoutes } from './milestones-routes.ts';
import { groupMilestonesRoutes } from './group-milestones-routes.ts';

export const milestonesEntities = [Milestone];

export interface MilestonesFeature extends Feature {
  milestones: MilestonesService;
}

/** Project and group milestones: what merge requests and issues are planned for. */
export function createMilestonesFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  /** A project's namespace and its ancestors, top-level first: whose group milestones the project uses. */
  namespaceIdsOf: (projectId: number) => Promise<number[]>;
}): MilestonesFeature {
  const milestones = new MilestonesService({ em: deps.em, store: new PgMilestoneStore(deps.em), namespaceIdsOf: deps.namespaceIdsOf });
  return {
    milestones,
    routes: [
      createRouter(milestonesRoutes, { access: deps.access, milestones }),
      createRouter(groupMilestonesRoutes, { access: deps.access, milestones }),
    ],
  };
}
