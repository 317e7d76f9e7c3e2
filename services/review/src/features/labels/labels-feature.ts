import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import { Milestone } from '../milestones/milestone.entity.ts';
import { PgMilestoneStore } from '../milestones/milestones-store.ts';
import { MilestonesService } from '../milestones/milestones-service.ts';
import { milestonesRoutes } from '../milestones/milestones-routes.ts';
import { Label } from './label.entity.ts';
import { PgLabelStore } from './labels-store.ts';
import { LabelsService } from './labels-service.ts';
import { labelsRoutes } from './labels-routes.ts';

export const labelsEntities = [Label, Milestone];

/** Project labels and milestones: what merge requests and issues are sorted by. */
export function createLabelsFeature(deps: { em: EntityManager; access: IdentityAccess }): {
  feature: Feature;
  labels: LabelsService;
  milestones: MilestonesService;
} {
  const labels = new LabelsService({ store: new PgLabelStore(deps.em) });
  const milestones = new MilestonesService({ store: new PgMilestoneStore(deps.em) });
  return {
    labels,
    milestones,
    feature: {
      routes: [
        createRouter(labelsRoutes, { access: deps.access, labels }),
        createRouter(milestonesRoutes, { access: deps.access, milestones }),
      ],
    },
  };
}
