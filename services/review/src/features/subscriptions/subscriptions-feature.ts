import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { FactsSource } from '../merge-requests/merge-request-facts.ts';
import type { MergeRequestsRouteDeps } from '../merge-requests/merge-request-route-support.ts';
import { subscriptionsEntities } from './subscription.entity.ts';
import type { SubscriptionsService } from './subscriptions-service.ts';
import { subscriptionsRoutes } from './subscriptions-routes.ts';

export { subscriptionsEntities };

/** `subscribed` of merge request views, for the user they are shown to. */
export function subscribedFacts(subscriptions: SubscriptionsService): FactsSource {
  return async (mergeRequests, userId) => {
    if (userId === null) return new Map();
    const subscribed = await subscriptions.subscribed(mergeRequests, userId);
    return new Map([...subscribed].map(([id, value]) => [id, { subscribed: value }]));
  };
}

/** Who follows which merge request: subscribe / unsubscribe, answered with the merge request's view. */
export function createSubscriptionsFeature(deps: MergeRequestsRouteDeps & { subscriptions: SubscriptionsService }): Feature {
  return { routes: [createRouter(subscriptionsRoutes, deps)] };
}
