import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import { GroupLabel } from './group-label.entity.ts';
import { PgGroupLabelStore } from './group-labels-store.ts';
import { groupLabelsRoutes } from './group-labels-routes.ts';
import { Label } from './label.entity.ts';
import { LabelSubscription } from './label-subscription.entity.ts';
import { PgLabelSubscriptionStore } from './label-subscriptions-store.ts';
import { PgLabelStore } from './labels-store.ts';
import { GroupLabelsService, LabelsService } from './labels-service.ts';
import { labelsRoutes } from './labels-routes.ts';

export const labelsEntities = [Label, GroupLabel, LabelSubscription];

export interface LabelsFeature extends Feature {
  labels: LabelsService;
}

/** Project and group labels: what merge requests and issues are sorted by. */
export function createLabelsFeature(deps: {
  em: EntityManager;
  access: IdentityAccess;
  /** A project's namespace and its ancestors, top-level first: whose group labels the project uses. */
  namespaceIdsOf: (projectId: number) => Promise<number[]>;
}): LabelsFeature {
  const groupStore = new PgGroupLabelStore(deps.em);
  const subscriptions = new PgLabelSubscriptionStore(deps.em);
  const labels = new LabelsService({
    em: deps.em,
    store: new PgLabelStore(deps.em),
    groupStore,
    subscriptions,
    namespaceIdsOf: deps.namespaceIdsOf,
  });
  const groupLabels = new GroupLabelsService({ em: deps.em, store: groupStore, subscriptions });
  return {
    labels,
    routes: [
      createRouter(labelsRoutes, { access: deps.access, labels }),
      createRouter(groupLabelsRoutes, { access: deps.access, groupLabels }),
    ],
  };
}
