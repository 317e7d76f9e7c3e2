import { z } from 'zod';
import { params, routesOf } from '@platform/http';
import type { UserDirectory } from '../core/user-directory.ts';
import { findNoteable, type NoteableDeps } from '../notes/noteable-lookup.ts';
import { positive } from '../notes/notes-routes.ts';
import { resourceStateEventView } from './resource-event-views.ts';
import type { ResourceStateEventsService } from './resource-state-events-service.ts';

export interface ResourceEventsRouteDeps extends NoteableDeps {
  stateEvents: ResourceStateEventsService;
  users: UserDirectory;
}

const route = routesOf<ResourceEventsRouteDeps>('review');

/** The state events of merge requests or issues (GitLab's resource state events API): listed oldest first, and one by id. */
function stateEventRoutesOf(path: 'merge_requests' | 'issues') {
  const base = `/api/v4/projects/:id/${path}/:eventable_iid/resource_state_events`;
  const perEventable = { id: params.idOrPath(), eventable_iid: positive() };
  return [
    route.list({
      path: base,
      access: 'user',
      scope: 'read_api',
      input: z.object(perEventable),
      handle: async ({ caller, input, deps, window }) => {
        const { noteable } = await findNoteable(deps, { caller, path, id: input.id, noteable: input.eventable_iid });
        const { items, total } = await deps.stateEvents.list(noteable, window);
        const users = await deps.users.users([...new Set(items.map((event) => event.userId))], caller);
        return { items: items.map((event) => resourceStateEventView(event, users)), total };
      },
    }),
    route({
      method: 'GET',
      path: `${base}/:event_id`,
      access: 'user',
      scope: 'read_api',
      input: z.object({ ...perEventable, event_id: positive() }),
      handle: async ({ caller, input, deps }) => {
        const { noteable } = await findNoteable(deps, { caller, path, id: input.id, noteable: input.eventable_iid });
        const event = await deps.stateEvents.get(noteable, input.event_id);
        return resourceStateEventView(event, await deps.users.users([event.userId], caller));
      },
    }),
  ];
}

export const resourceEventsRoutes = [...stateEventRoutesOf('merge_requests'), ...stateEventRoutesOf('issues')];
