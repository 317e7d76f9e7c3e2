import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { InputError } from '@platform/errors';
import { baseUrlOf, dateParam, params, routesOf } from '@platform/http';
import { ACCESS_LEVEL, type IdentityAccess } from '@platform/identity-client';
import { milestoneView } from './milestone-views.ts';
import type { MilestonesService } from './milestones-service.ts';

export interface GroupMilestonesRouteDeps {
  access: IdentityAccess;
  milestones: MilestonesService;
}

const route = routesOf<GroupMilestonesRouteDeps>('review');

/** `YYYY-MM-DD` (a timestamp is read as its date), or null / empty to clear it. */
const optionalDate = () => z.union([dateParam(), z.null(), z.literal('').transform(() => null)]).optional();
const perMilestone = { id: params.idOrPath(), milestone_id: params.integer().pipe(z.number().int().positive()) };

const UPDATE_FIELDS = 'title, description, due_date, start_date, state_event are missing, at least one parameter must be provided';

/** The group behind `:id` when the caller may see it (and has `minimumLevel` there): 404 when invisible, 403 with too little access. */
function groupOf(deps: GroupMilestonesRouteDeps, caller: Caller, idOrPath: string | number, minimumLevel = 0): Promise<number> {
  return deps.access.require({ resource: 'group', idOrPath: String(idOrPath), caller, minimumLevel });
}

/** Where the group's pages are, as the request named the group. */
function groupPages(request: Parameters<typeof baseUrlOf>[0], idOrPath: string | number) {
  return { webUrl: `${baseUrlOf(request)}/groups/${idOrPath}` };
}

/** A group's milestones (GitLab's group_milestones): its projects, and its subgroups' projects, plan issues and merge requests with them. */
export const groupMilestonesRoutes = [
  route.list({
    path: '/api/v4/groups/:id/milestones',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({
      id: params.idOrPath(),
      iids: params.integerList(100).optional(),
      state: z.enum(['active', 'closed']).optional(),
      title: z.string().max(255).optional(),
      search: z.string().max(255).optional(),
      include_parent_milestones: params.boolean().default(false),
      include_ancestors: params.boolean().default(false),
      updated_before: params.datetime().optional(),
      updated_after: params.datetime().optional(),
    }),
    handle: async ({ caller, input, deps, window, request }) => {
      const groupId = await groupOf(deps, caller, input.id);
      const filter = {
        state: input.state,
        iids: input.iids,
        title: input.title,
        search: input.search,
        updatedBefore: input.updated_before,
        updatedAfter: input.updated_after,
      };
      const { items, total } = await deps.milestones.list({ groupIds: [groupId] }, { filter, ...window });
      return { items: items.map((milestone) => milestoneView(milestone, groupPages(request, input.id))), total };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/groups/:id/milestones/:milestone_id',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object(perMilestone),
    handle: async ({ caller, input, deps, request }) => {
      const groupId = await groupOf(deps, caller, input.id);
      return milestoneView(await deps.milestones.getInGroup(groupId, input.milestone_id), groupPages(request, input.id));
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/groups/:id/milestones',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      id: params.idOrPath(),
      title: z.string().max(255),
      description: z.string().max(65_535).nullable().optional(),
      due_date: optionalDate(),
      start_date: optionalDate(),
    }),
    handle: async ({ caller, input, deps, request }) => {
      const groupId = await groupOf(deps, caller, input.id, ACCESS_LEVEL.REPORTER);
      const created = await deps.milestones.create({ groupId }, caller, {
        title: input.title,
        description: input.description,
        dueDate: input.due_date,
        startDate: input.start_date,
      });
      return milestoneView(created, groupPages(request, input.id));
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/groups/:id/milestones/:milestone_id',
    access: 'user',
    scope: 'api',
    input: z.object({
      ...perMilestone,
      title: z.string().max(255).optional(),
      description: z.string().max(65_535).nullable().optional(),
      due_date: optionalDate(),
      start_date: optionalDate(),
      state_event: z.enum(['close', 'activate']).optional(),
    }),
    handle: async ({ caller, input, deps, request }) => {
      const { id: _id, milestone_id: milestoneId, ...given } = input;
      if (Object.values(given).every((value) => value === undefined)) throw new InputError(UPDATE_FIELDS);
      const groupId = await groupOf(deps, caller, input.id, ACCESS_LEVEL.REPORTER);
      const updated = await deps.milestones.update(await deps.milestones.getInGroup(groupId, milestoneId), caller, {
        title: input.title,
        description: input.description,
        dueDate: input.due_date,
        startDate: input.start_date,
        stateEvent: input.state_event,
      });
      return milestoneView(updated, groupPages(request, input.id));
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/groups/:id/milestones/:milestone_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object(perMilestone),
    handle: async ({ caller, input, deps }) => {
      const groupId = await groupOf(deps, caller, input.id, ACCESS_LEVEL.REPORTER);
      await deps.milestones.delete(await deps.milestones.getInGroup(groupId, input.milestone_id), caller);
    },
  }),
];
