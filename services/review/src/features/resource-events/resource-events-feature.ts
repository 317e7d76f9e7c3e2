import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { NoteableDeps } from '../notes/noteable-lookup.ts';
import type { NotesService } from '../notes/notes-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { ResourceStateEvent } from './resource-state-event.entity.ts';
import { resourceStateEventHandlers } from './resource-state-event-handlers.ts';
import { PgResourceStateEventStore } from './resource-state-events-store.ts';
import { ResourceStateEventsService } from './resource-state-events-service.ts';
import { resourceEventsRoutes } from './resource-events-routes.ts';

export const resourceEventsEntities = [ResourceStateEvent];

/** The history of merge requests and issues: their state events (GitLab's resource state events) and the system notes they write. */
export function createResourceEventsFeature(
  deps: NoteableDeps & { em: EntityManager; notes: NotesService; users: UserDirectory },
): Feature {
  const stateEvents = new ResourceStateEventsService({ em: deps.em, store: new PgResourceStateEventStore(deps.em), notes: deps.notes });
  return {
    routes: [createRouter(resourceEventsRoutes, { ...deps, stateEvents })],
    consumes: resourceStateEventHandlers(stateEvents),
  };
}
