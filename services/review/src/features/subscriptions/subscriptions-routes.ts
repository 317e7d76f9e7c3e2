import { z } from 'zod';
import { params, reply, routesOf } from '@platform/http';
import { readableMergeRequest } from '../merge-requests/merge-request-lookup.ts';
import { detail, type MergeRequestsRouteDeps } from '../merge-requests/merge-request-route-support.ts';
import type { SubscriptionsService } from './subscriptions-service.ts';

export interface SubscriptionsRouteDeps extends MergeRequestsRouteDeps {
  subscriptions: SubscriptionsService;
}

const route = routesOf<SubscriptionsRouteDeps>('review');
const perMergeRequest = { id: params.idOrPath(), merge_request_iid: params.integer().pipe(z.number().int().positive()) };

/** Subscribes or unsubscribes the caller: the merge request (201), or 304 when nothing changed. */
function subscriptionRoute(path: string, subscribed: boolean) {
  return route({
    method: 'POST',
    path,
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object(perMergeRequest),
    handle: async ({ caller, input, deps }) => {
      const { project, mergeRequest } = await readableMergeRequest(deps, caller, input);
      if (!(await deps.subscriptions.choose(mergeRequest, caller.userId, subscribed))) return reply({ status: 304 });
      return detail(deps, caller, { project, repository: await deps.repositories.ensure(project.id) }, mergeRequest);
    },
  });
}

export const subscriptionsRoutes = [
  subscriptionRoute('/api/v4/projects/:id/merge_requests/:merge_request_iid/subscribe', true),
  subscriptionRoute('/api/v4/projects/:id/merge_requests/:merge_request_iid/unsubscribe', false),
];
