import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { Feature } from '@platform/service';
import type { IssuableHistory } from '../core/issuable-history.ts';
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
import { PgResourceStateEventStore } from './resource-state-events-store.ts';
import { ResourceStateEventsService } from './resource-state-events-service.ts';
import { resourceHistory } from './resource-history.ts';
import { resourceEventsRoutes } from './resource-events-routes.ts';

export const resourceEventsEntities = [ResourceStateEvent, ResourceMilestoneEvent, ResourceLabelEvent];

/** The history of merge requests and issues, built before the features whose changes write it. */
export interface ResourceEvents {
  stateEvents: ResourceStateEventsService;
  milestoneEvents: ResourceMilestoneEventsService;
  labelEvents: ResourceLabelEventsService;
  /** What merge requests and issues write with each change. */
  history: IssuableHistory;
}

export function createResourceEvents(deps: {
  em: EntityManager;
  notes: Pick<NotesService, 'recordSystemNote' | 'recordCrossReferences'>;
}): ResourceEvents {
  const stateEvents = new ResourceStateEventsService({ store: new PgResourceStateEventStore(deps.em), notes: deps.notes });
  const milestoneEvents = new ResourceMilestoneEventsService({ store: new PgResourceMilestoneEventStore(deps.em) });
  const labelEvents = new ResourceLabelEventsService({ store: new PgResourceLabelEventStore(deps.em) });
  return {
    stateEvents,
    milestoneEvents,
    labelEvents,
    history: resourceHistory({ stateEvents, milestoneEvents, labelEvents, notes: deps.notes }),
  };
}

/**
 * The history of merge requests and issues over HTTP: their state events (each with the system
 * note it wrote, GitLab's resource state events), their milestone events and their label events.
 */
export function createResourceEventsFeature(
  deps: NoteableDeps & {
    events: ResourceEvents;
    users: UserDirectory;
    milestones: Pick<MilestonesService, 'byIds'>;
    labels: Pick<LabelsService, 'visibleByTitles'>;
  },
): Feature {
  const { events, ...routeDeps } = deps;
  const { stateEvents, milestoneEvents, labelEvents } = events;
  return { routes: [createRouter(resourceEventsRoutes, { ...routeDeps, stateEvents, milestoneEvents, labelEvents })] };
}
