import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import type { NoteableDeps } from '../notes/noteable-lookup.ts';
import type { NotesService } from '../notes/notes-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { ResourceMilestoneEvent } from './resource-milestone-event.entity.ts';
import { PgResourceMilestoneEventStore } from './resource-milestone-events-store.ts';
import { ResourceMilestoneEventsService } from './resource-milestone-events-service.ts';
import { ResourceStateEvent } from './resource-state-event.entity.ts';
import { resourceEventHandlers } from './resource-event-handlers.ts';
import { PgResourceStateEventStore } from './resource-state-events-store.ts';
import { ResourceStateEventsService } from './resource-state-events-service.ts';
import { resourceEventsRoutes } from './resource-events-routes.ts';

export const resourceEventsEntities = [ResourceStateEvent, ResourceMilestoneEvent];

/**
 * The history of merge requests and issues: their state events and the system notes they write
 * (GitLab's resource state events), and their milestone events (resource milestone events).
 */
export function createResourceEventsFeature(
  deps: NoteableDeps & { em: EntityManager; notes: NotesService; users: UserDirectory; milestones: Pick<MilestonesService, 'byIds'> },
): Feature {
  const stateEvents = new ResourceStateEventsService({ em: deps.em, store: new PgResourceStateEventStore(deps.em), notes: deps.notes });
  const milestoneEvents = new ResourceMilestoneEventsService({ em: deps.em, store: new PgResourceMilestoneEventStore(deps.em) });
  return {
    routes: [createRouter(resourceEventsRoutes, { ...deps, stateEvents, milestoneEvents })],
    consumes: resourceEventHandlers({ states: stateEvents, milestones: milestoneEvents }),
  };
}
