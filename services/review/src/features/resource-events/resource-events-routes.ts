import { z } from 'zod';
import type { Caller } from '@platform/auth';
import type { ProjectAccess } from '@platform/identity-client';
import { params, routesOf } from '@platform/http';
import type { UserDirectory, UserSummary } from '../core/user-directory.ts';
import { findNoteable, type NoteableDeps } from '../notes/noteable-lookup.ts';
import type { Noteable } from '../notes/noteable.ts';
import { positive } from '../notes/notes-routes.ts';
import type { LabelsService } from '../labels/labels-service.ts';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import { resourceLabelEventView, resourceMilestoneEventView, resourceStateEventView } from './resource-event-views.ts';
import type { ResourceLabelEvent } from './resource-label-event.entity.ts';
import type { ResourceLabelEventsService } from './resource-label-events-service.ts';
import type { ResourceMilestoneEventsService } from './resource-milestone-events-service.ts';
import type { ResourceMilestoneEvent } from './resource-milestone-event.entity.ts';
import type { ResourceStateEvent } from './resource-state-event.entity.ts';
import type { ResourceStateEventsService } from './resource-state-events-service.ts';

export interface ResourceEventsRouteDeps extends NoteableDeps {
  stateEvents: ResourceStateEventsService;
  milestoneEvents: ResourceMilestoneEventsService;
  milestones: Pick<MilestonesService, 'byIds'>;
  labelEvents: ResourceLabelEventsService;
  labels: Pick<LabelsService, 'visibleByTitles'>;
  users: UserDirectory;
}

const route = routesOf<ResourceEventsRouteDeps>('review');

/** What events are shown for: the caller, in a project. */
interface ViewContext {
  deps: ResourceEventsRouteDeps;
  caller: Caller;
  project: ProjectAccess;
}

/** One kind of event of the history of merge requests and issues, as its API names and shows it. */
interface EventKind<Event> {
  /** The last segment of its paths. */
  resource: string;
  /** GitLab names the merge request's or issue's parameter, and the event's, per kind. */
  eventableParam: 'eventable_iid' | 'eventable_id';
  eventParam: string;
  events: (deps: ResourceEventsRouteDeps) => {
    list(noteable: Noteable, window: { offset: number; limit: number }): Promise<{ items: Event[]; total: number }>;
    get(noteable: Noteable, id: number): Promise<Event>;
  };
  views: (context: ViewContext, events: Event[]) => Promise<unknown[]>;
}

function usersOf(context: ViewContext, events: Array<{ userId: number }>): Promise<Map<number, UserSummary>> {
  return context.deps.users.users([...new Set(events.map((event) => event.userId))], context.caller);
}

/** GitLab's resource state events API. */
const stateEvents: EventKind<ResourceStateEvent> = {
  resource: 'resource_state_events',
  eventableParam: 'eventable_iid',
  eventParam: 'event_id',
  events: (deps) => deps.stateEvents,
  views: async (context, events) => {
    const users = await usersOf(context, events);
    return events.map((event) => resourceStateEventView(event, users));
  },
};

/** GitLab's resource milestone events API, each with its milestone. */
const milestoneEvents: EventKind<ResourceMilestoneEvent> = {
  resource: 'resource_milestone_events',
  eventableParam: 'eventable_id',
  eventParam: 'resource_milestone_event_id',
  events: (deps) => deps.milestoneEvents,
  views: async (context, events) => {
    const { deps, project } = context;
    const [users, milestones] = await Promise.all([
      usersOf(context, events),
      deps.milestones.byIds(project.id, [...new Set(events.map((event) => event.milestoneId))]),
    ]);
    return events.map((event) => resourceMilestoneEventView(event, { users, milestones, project }));
  },
};

/** GitLab's resource label events API, each with its label. */
const labelEvents: EventKind<ResourceLabelEvent> = {
  resource: 'resource_label_events',
  eventableParam: 'eventable_id',
  eventParam: 'resource_label_event_id',
  events: (deps) => deps.labelEvents,
  views: async (context, events) => {
    const [users, labels] = await Promise.all([
      usersOf(context, events),
      context.deps.labels.visibleByTitles(context.project.id, [...new Set(events.map((event) => event.labelTitle))]),
    ]);
    const byTitle = new Map(labels.map((label) => [label.title, label]));
    return events.map((event) => resourceLabelEventView(event, { users, labels: byTitle }));
  },
};

/** One kind of events of merge requests or issues: listed oldest first, and one by id. */
function eventRoutesOf<Event>(path: 'merge_requests' | 'issues', kind: EventKind<Event>) {
  const base = `/api/v4/projects/:id/${path}/:${kind.eventableParam}/${kind.resource}`;
  // Typed as one key each; at run time the keys are the kind's own, read back by name.
  const perEventable = { id: params.idOrPath(), [kind.eventableParam]: positive() } as {
    id: ReturnType<typeof params.idOrPath>;
    eventable: ReturnType<typeof positive>;
  };
  const perEvent = { ...perEventable, [kind.eventParam]: positive() } as typeof perEventable & { event: ReturnType<typeof positive> };
  const named = (input: object, param: string) => (input as Record<string, number>)[param] as number;
  const found = async (deps: ResourceEventsRouteDeps, caller: Caller, input: { id: string | number }) => {
    const { project, noteable } = await findNoteable(deps, { caller, path, id: input.id, noteable: named(input, kind.eventableParam) });
    return { noteable, context: { deps, caller, project } };
  };
  return [
    route.list({
      path: base,
      access: 'user',
      scope: 'read_api',
      input: z.object(perEventable),
      handle: async ({ caller, input, deps, window }) => {
        const { noteable, context } = await found(deps, caller, input);
        const { items, total } = await kind.events(deps).list(noteable, window);
        return { items: await kind.views(context, items), total };
      },
    }),
    route({
      method: 'GET',
      path: `${base}/:${kind.eventParam}`,
      access: 'user',
      scope: 'read_api',
      input: z.object(perEvent),
      handle: async ({ caller, input, deps }) => {
        const { noteable, context } = await found(deps, caller, input);
        const event = await kind.events(deps).get(noteable, named(input, kind.eventParam));
        const [view] = await kind.views(context, [event]);
        return view;
      },
    }),
  ];
}

export const resourceEventsRoutes = [
  ...eventRoutesOf('merge_requests', labelEvents),
  ...eventRoutesOf('issues', labelEvents),
  ...eventRoutesOf('merge_requests', stateEvents),
  ...eventRoutesOf('issues', stateEvents),
  ...eventRoutesOf('merge_requests', milestoneEvents),
  ...eventRoutesOf('issues', milestoneEvents),
];
