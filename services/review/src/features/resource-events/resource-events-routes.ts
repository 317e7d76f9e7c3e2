import { z } from 'zod';
import type { Caller } from '@platform/auth';
import type { ProjectAccess } from '@platform/identity-client';
import { params, routesOf } from '@platform/http';
import type { UserDirectory } from '../core/user-directory.ts';
import { findNoteable, type NoteableDeps } from '../notes/noteable-lookup.ts';
import { positive } from '../notes/notes-routes.ts';
import type { LabelsService } from '../labels/labels-service.ts';
import type { MilestonesService } from '../milestones/milestones-service.ts';
import { resourceLabelEventView, resourceMilestoneEventView, resourceStateEventView } from './resource-event-views.ts';
import type { ResourceLabelEvent } from './resource-label-event.entity.ts';
import type { ResourceLabelEventsService } from './resource-label-events-service.ts';
import type { ResourceMilestoneEventsService } from './resource-milestone-events-service.ts';
import type { ResourceMilestoneEvent } from './resource-milestone-event.entity.ts';
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

/** The milestone events of merge requests or issues (GitLab's resource milestone events API): listed oldest first, and one by id. */
function milestoneEventRoutesOf(path: 'merge_requests' | 'issues') {
  const base = `/api/v4/projects/:id/${path}/:eventable_id/resource_milestone_events`;
  const perEventable = { id: params.idOrPath(), eventable_id: positive() };
  const viewsOf = async (deps: ResourceEventsRouteDeps, caller: Caller, project: ProjectAccess, events: ResourceMilestoneEvent[]) => {
    const [users, milestones] = await Promise.all([
      deps.users.users([...new Set(events.map((event) => event.userId))], caller),
      deps.milestones.byIds(project.id, [...new Set(events.map((event) => event.milestoneId))]),
    ]);
    return events.map((event) => resourceMilestoneEventView(event, { users, milestones, project }));
  };
  return [
    route.list({
      path: base,
      access: 'user',
      scope: 'read_api',
      input: z.object(perEventable),
      handle: async ({ caller, input, deps, window }) => {
        const { project, noteable } = await findNoteable(deps, { caller, path, id: input.id, noteable: input.eventable_id });
        const { items, total } = await deps.milestoneEvents.list(noteable, window);
        return { items: await viewsOf(deps, caller, project, items), total };
      },
    }),
    route({
      method: 'GET',
      path: `${base}/:resource_milestone_event_id`,
      access: 'user',
      scope: 'read_api',
      input: z.object({ ...perEventable, resource_milestone_event_id: positive() }),
      handle: async ({ caller, input, deps }) => {
        const { project, noteable } = await findNoteable(deps, { caller, path, id: input.id, noteable: input.eventable_id });
        const event = await deps.milestoneEvents.get(noteable, input.resource_milestone_event_id);
        return (await viewsOf(deps, caller, project, [event]))[0];
      },
    }),
  ];
}

/** The label events of merge requests or issues (GitLab's resource label events API): listed oldest first, and one by id. */
function labelEventRoutesOf(path: 'merge_requests' | 'issues') {
  const base = `/api/v4/projects/:id/${path}/:eventable_id/resource_label_events`;
  const perEventable = { id: params.idOrPath(), eventable_id: positive() };
  const viewsOf = async (deps: ResourceEventsRouteDeps, caller: Caller, project: ProjectAccess, events: ResourceLabelEvent[]) => {
    const [users, labels] = await Promise.all([
      deps.users.users([...new Set(events.map((event) => event.userId))], caller),
      deps.labels.visibleByTitles(project.id, [...new Set(events.map((event) => event.labelTitle))]),
    ]);
    const byTitle = new Map(labels.map((label) => [label.title, label]));
    return events.map((event) => resourceLabelEventView(event, { users, labels: byTitle }));
  };
  return [
    route.list({
      path: base,
      access: 'user',
      scope: 'read_api',
      input: z.object(perEventable),
      handle: async ({ caller, input, deps, window }) => {
        const { project, noteable } = await findNoteable(deps, { caller, path, id: input.id, noteable: input.eventable_id });
        const { items, total } = await deps.labelEvents.list(noteable, window);
        return { items: await viewsOf(deps, caller, project, items), total };
      },
    }),
    route({
      method: 'GET',
      path: `${base}/:resource_label_event_id`,
      access: 'user',
      scope: 'read_api',
      input: z.object({ ...perEventable, resource_label_event_id: positive() }),
      handle: async ({ caller, input, deps }) => {
        const { project, noteable } = await findNoteable(deps, { caller, path, id: input.id, noteable: input.eventable_id });
        const event = await deps.labelEvents.get(noteable, input.resource_label_event_id);
        return (await viewsOf(deps, caller, project, [event]))[0];
      },
    }),
  ];
}

export const resourceEventsRoutes = [
  ...labelEventRoutesOf('merge_requests'),
  ...labelEventRoutesOf('issues'),
  ...stateEventRoutesOf('merge_requests'),
  ...stateEventRoutesOf('issues'),
  ...milestoneEventRoutesOf('merge_requests'),
  ...milestoneEventRoutesOf('issues'),
];
