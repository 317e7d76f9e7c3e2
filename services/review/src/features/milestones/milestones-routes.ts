import { z } from 'zod';
import { InputError } from '@platform/errors';
import { dateParam, params, routesOf } from '@platform/http';
import { ACCESS_LEVEL, type IdentityAccess } from '@platform/identity-client';
import { planningProject, projectGroup } from '../core/issue-access.ts';
import { milestoneView } from './milestone-views.ts';
import type { MilestonesService } from './milestones-service.ts';

export interface MilestonesRouteDeps {
  access: IdentityAccess;
  milestones: MilestonesService;
}

const route = routesOf<MilestonesRouteDeps>('review');

/** `YYYY-MM-DD`, or null / empty to clear it. */
const optionalDate = () => z.union([dateParam(), z.null(), z.literal('').transform(() => null)]).optional();
const milestoneIdParam = () => params.integer().pipe(z.number().int().positive());

const UPDATE_FIELDS = 'title, description, due_date, start_date, state_event are missing, at least one parameter must be provided';

export const milestonesRoutes = [
  route.list({
    path: '/api/v4/projects/:id/milestones',
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
    handle: async ({ caller, input, deps, window }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const filter = {
        state: input.state,
        iids: input.iids,
        title: input.title,
        search: input.search,
        updatedBefore: input.updated_before,
        updatedAfter: input.updated_after,
      };
      const parent = {
        projectId: project.id,
        groupIds: input.include_parent_milestones || input.include_ancestors ? project.namespaceIds : [],
      };
      const { items, total } = await deps.milestones.list(parent, { filter, ...window });
      return { items: items.map((milestone) => milestoneView(milestone, project)), total };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/milestones/:milestone_id',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), milestone_id: milestoneIdParam() }),
    handle: async ({ caller, input, deps }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      return milestoneView(await deps.milestones.get(project.id, input.milestone_id), project);
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/milestones',
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
    handle: async ({ caller, input, deps }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      const created = await deps.milestones.create({ projectId: project.id }, caller, {
        title: input.title,
        description: input.description,
        dueDate: input.due_date,
        startDate: input.start_date,
      });
      return milestoneView(created, project);
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/milestones/:milestone_id',
    access: 'user',
    scope: 'api',
    input: z.object({
      id: params.idOrPath(),
      milestone_id: milestoneIdParam(),
      title: z.string().max(255).optional(),
      description: z.string().max(65_535).nullable().optional(),
      due_date: optionalDate(),
      start_date: optionalDate(),
      state_event: z.enum(['close', 'activate']).optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const { id: _id, milestone_id: milestoneId, ...given } = input;
      if (Object.values(given).every((value) => value === undefined)) throw new InputError(UPDATE_FIELDS);
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      const updated = await deps.milestones.update(await deps.milestones.get(project.id, milestoneId), caller, {
        title: input.title,
        description: input.description,
        dueDate: input.due_date,
        startDate: input.start_date,
        stateEvent: input.state_event,
      });
      return milestoneView(updated, project);
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/milestones/:milestone_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ id: params.idOrPath(), milestone_id: milestoneIdParam() }),
    handle: async ({ caller, input, deps }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      await deps.milestones.delete(await deps.milestones.get(project.id, input.milestone_id), caller);
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/milestones/:milestone_id/promote',
    access: 'user',
    scope: 'api',
    status: 200,
    input: z.object({ id: params.idOrPath(), milestone_id: milestoneIdParam() }),
    handle: async ({ caller, input, deps }) => {
      // Reporters of the project and of its group; the milestone is looked for once both are settled.
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      const groupId = await projectGroup({ access: deps.access, caller, project });
      await deps.milestones.promote(await deps.milestones.get(project.id, input.milestone_id), caller, groupId);
      // GitLab answers `status(200)`, whose value is its body.
      return 200;
    },
  }),
];
