import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { LabelsService } from '../labels/labels-service.ts';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import type { NoteableDeps } from '../notes/noteable-lookup.ts';
import type { NotesService } from '../notes/notes-service.ts';
import type { UserDirectory } from '../core/user-directory.ts';
import { ResourceLabelEvent } from './resource-label-event.entity.ts';
import { PgResourceLabelEventStore } from './resource-label-events-store.ts';
import { ResourceLabelEventsService } from './resource-label-events-service.ts';
import { ResourceMilestoneEvent } from './resource-milestone-event.entity.ts';
import { PgResourceMilestoneEventStore } from './resource-milestone-events-store.ts';
import { ResourceMilestoneEventsService } from './resource-milestone-events-service.ts';
import { ResourceStateEvent } from './resource-state-event.entity.ts';
import { resourceEventHandlers } from './resource-event-handlers.ts';
import { PgResourceStateEventStore } from './resource-state-events-store.ts';
import { ResourceStateEventsService } from './resource-state-events-service.ts';
import { resourceEventsRoutes } from './resource-events-routes.ts';

export const resourceEventsEntities = [ResourceStateEvent, ResourceMilestoneEvent, ResourceLabelEvent];

/**
 * The history of merge requests and issues: their state events and the system notes they write
 * (GitLab's resource state events), their milestone events and their label events.
 */
export function createResourceEventsFeature(
  deps: NoteableDeps & {
    em: EntityManager;
    notes: NotesService;
    users: UserDirectory;
    milestones: Pick<MilestonesService, 'byIds'>;
    labels: Pick<LabelsService, 'visibleByTitles'>;
  },
): Feature {
  const stateEvents = new ResourceStateEventsService({ em: deps.em, store: new PgResourceStateEventStore(deps.em), notes: deps.notes });
  const milestoneEvents = new ResourceMilestoneEventsService({ em: deps.em, store: new PgResourceMilestoneEventStore(deps.em) });
  const labelEvents = new ResourceLabelEventsService({ em: deps.em, store: new PgResourceLabelEventStore(deps.em) });
  return {
    routes: [createRouter(resourceEventsRoutes, { ...deps, stateEvents, milestoneEvents, labelEvents })],
    consumes: resourceEventHandlers({ states: stateEvents, milestones: milestoneEvents, labels: labelEvents, notes: deps.notes }),
  };
}
