import { routesOf, type ListResult } from '@platform/http';
import type { ActivityEventFilter } from './activity-events-store.ts';
import type { ActivityEventsService, ActivityPage } from './activity-events-service.ts';
import { activityEventView } from './activity-events-views.ts';
import { callerEventsQuery, projectEventsQuery, TARGET_TYPES, userEventsQuery, type ActivityFilters } from './activity-events.schemas.ts';

const route = routesOf<{ activityEvents: ActivityEventsService; externalUrl: string }>('audit');

/** Newest first unless `sort=asc`; GitLab's events API orders by creation only. */
const EVENT_ORDER = { by: ['created_at'], default: 'created_at', sort: 'desc' } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** `before` and `after` exclude their day, as GitLab's: `after=2026-01-01` starts on 2026-01-02. */
function filterOf(input: ActivityFilters): ActivityEventFilter {
  return {
    action: input.action,
    targetType: input.target_type && TARGET_TYPES[input.target_type],
    until: input.before,
    from: input.after && new Date(input.after.getTime() + DAY_MS),
  };
}

function viewsOf(page: ActivityPage, externalUrl: string): ListResult<unknown> {
  return {
    items: page.items.map((event) => activityEventView(event, { author: page.authors.get(event.authorId), externalUrl })),
    total: page.total,
    hasNext: page.hasNext,
  };
}

/** Activity events: the caller's, a user's and a project's, each limited to the projects the caller may see. */
export const activityEventsRoutes = [
  route.list({
    path: '/api/v4/events',
    access: 'user',
    scope: 'read_user',
    input: callerEventsQuery,
    order: EVENT_ORDER,
    handle: async ({ caller, input, window, order, deps }) =>
      viewsOf(
        await deps.activityEvents.listForCaller(caller, {
          filter: filterOf(input),
          sort: order.sort,
          window,
          everyone: input.scope === 'all',
        }),
        deps.externalUrl,
      ),
  }),

  route.list({
    path: '/api/v4/users/:id/events',
    access: 'anonymous',
    scope: 'read_user',
    input: userEventsQuery,
    order: EVENT_ORDER,
    handle: async ({ caller, input, window, order, deps }) =>
      viewsOf(
        await deps.activityEvents.listForUser(caller, input.id, { filter: filterOf(input), sort: order.sort, window }),
        deps.externalUrl,
      ),
  }),

  route.list({
    path: '/api/v4/projects/:id/events',
    access: 'anonymous',
    scope: 'read_user',
    input: projectEventsQuery,
    order: EVENT_ORDER,
    handle: async ({ caller, input, window, order, deps }) =>
      viewsOf(
        await deps.activityEvents.listForProject(caller, String(input.id), { filter: filterOf(input), sort: order.sort, window }),
        deps.externalUrl,
      ),
  }),
];
