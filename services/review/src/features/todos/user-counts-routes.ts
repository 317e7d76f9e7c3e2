import { z } from 'zod';
import { routesOf } from '@platform/http';
import type { MergeRequestFilter } from '../merge-requests/merge-requests-store.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { TodosService } from './todos-service.ts';

export interface UserCountsRouteDeps {
  mergeRequests: MergeRequestsService;
  todos: TodosService;
}

const route = routesOf<UserCountsRouteDeps>('review');

export const userCountsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/user_counts',
    access: 'user',
    scope: 'read_api',
    input: z.object({}),
    handle: async ({ caller, deps }) => {
      const openCount = async (filter: MergeRequestFilter) =>
        (
          await deps.mergeRequests.list({
            filter: { ...filter, states: ['opened'] },
            order: { by: 'created_at', direction: 'desc' },
            offset: 0,
            limit: 1,
          })
        ).total;
      const [involved, assigned, reviewing, todos] = await Promise.all([
        openCount({ involvedUserId: caller.userId }),
        openCount({ assignee: { kind: 'is', value: caller.userId } }),
        openCount({ reviewer: { kind: 'is', value: caller.userId } }),
        deps.todos.pendingCount(caller.userId),
      ]);
      return {
        merge_requests: involved,
        assigned_issues: 0,
        // This platform's issues carry no assignees yet: none are assigned to anybody.
        issues: 0,
        assigned_merge_requests: assigned,
        review_requested_merge_requests: reviewing,
        todos,
      };
    },
  }),
];
