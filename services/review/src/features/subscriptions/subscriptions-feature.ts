import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { MergeRequestsRouteDeps } from '../merge-requests/merge-requests-routes.ts';
import { subscriptionsEntities } from './subscription.entity.ts';
import { PgSubscriptionStore } from './subscriptions-store.ts';
import { SubscriptionsService } from './subscriptions-service.ts';
import { subscriptionsRoutes } from './subscriptions-routes.ts';

export { subscriptionsEntities };

/** Who follows which merge request: `subscribed` in its views, and subscribe / unsubscribe. */
export function createSubscriptionsFeature(deps: MergeRequestsRouteDeps & { em: EntityManager }): Feature {
  const subscriptions = new SubscriptionsService({ store: new PgSubscriptionStore(deps.em) });
  deps.mergeRequests.addFactsSource(async (mergeRequests, userId) => {
    if (userId === null) return new Map();
    const subscribed = await subscriptions.subscribed(mergeRequests, userId);
    return new Map([...subscribed].map(([id, value]) => [id, { subscribed: value }]));
  });
  const { em: _em, ...routeDeps } = deps;
  return { routes: [createRouter(subscriptionsRoutes, { ...routeDeps, subscriptions })] };
}
