import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import { Milestone } from './milestone.entity.ts';
import { PgMilestoneStore } from './milestones-store.ts';
import { MilestonesService } from './milestones-service.ts';
import { milestonesRoutes } from './milestones-routes.ts';

export const milestonesEntities = [Milestone];

export interface MilestonesFeature extends Feature {
  milestones: MilestonesService;
}

/** Project milestones: what merge requests and issues are planned for. */
export function createMilestonesFeature(deps: { em: EntityManager; access: IdentityAccess }): MilestonesFeature {
  const milestones = new MilestonesService({ em: deps.em, store: new PgMilestoneStore(deps.em) });
  return { milestones, routes: [createRouter(milestonesRoutes, { access: deps.access, milestones })] };
}
