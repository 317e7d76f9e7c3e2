import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import { Label } from './label.entity.ts';
import { PgLabelStore } from './labels-store.ts';
import { LabelsService } from './labels-service.ts';
import { labelsRoutes } from './labels-routes.ts';

export const labelsEntities = [Label];

export interface LabelsFeature extends Feature {
  labels: LabelsService;
}

/** Project labels: what merge requests and issues are sorted by. */
export function createLabelsFeature(deps: { em: EntityManager; access: IdentityAccess }): LabelsFeature {
  const labels = new LabelsService({ store: new PgLabelStore(deps.em) });
  return { labels, routes: [createRouter(labelsRoutes, { access: deps.access, labels })] };
}
