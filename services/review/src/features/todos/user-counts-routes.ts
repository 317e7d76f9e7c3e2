import { z } from 'zod';
import { routesOf } from '@platform/http';
import type { IssuesService } from '../issues/issues-service.ts';
import type { MergeRequestFilter } from '../merge-requests/merge-requests-store.ts';
import type { MergeRequestsService } from '../merge-requests/merge-requests-service.ts';
import type { TodosService } from './todos-service.ts';

export interface UserCountsRouteDeps {
  mergeRequests: MergeRequestsService;
  todos: TodosService;
  issues: IssuesService;
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
      const [involved, assigned, reviewing, todos, assignedIssues] = await Promise.all([
        openCount({ involvedUserId: caller.userId }),
        openCount({ assignee: { kind: 'is', value: caller.userId } }),
        openCount({ reviewer: { kind: 'is', value: caller.userId } }),
        deps.todos.pendingCount(caller.userId),
        deps.issues.countOpenAssignedTo(caller.userId),
      ]);
      return {
        merge_requests: involved,
        assigned_issues: assignedIssues,
        // GitLab's `issues` is the same count as `assigned_issues`.
        issues: assignedIssues,
        assigned_merge_requests: assigned,
        review_requested_merge_requests: reviewing,
        todos,
      };
    },
  }),
];
