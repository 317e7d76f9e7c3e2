import { z } from 'zod';
import { InputError } from '@platform/errors';
import type { Caller } from '@platform/auth';
import { params, reply, routesOf } from '@platform/http';
import { ACCESS_LEVEL, type IdentityAccess } from '@platform/identity-client';
import { planningProject, projectGroup } from '../core/issue-access.ts';
import { labelChangeShape, newLabelShape, requireSomeChange } from './label-params.ts';
import { labelBasicView, projectLabelView } from './label-views.ts';
import { listedProjectLabel, type LabelsService, type ListedLabel } from './labels-service.ts';

export interface LabelsRouteDeps {
  access: IdentityAccess;
  labels: LabelsService;
}

const route = routesOf<LabelsRouteDeps>('review');

/** `priority`: an integer, or null / empty to remove it. */
const priorityParam = () => z.union([params.integer().pipe(z.number().int().min(0)), z.null(), z.literal('').transform(() => null)]);

async function viewsOf(deps: LabelsRouteDeps, caller: Caller, projectId: number, labels: ListedLabel[]) {
  const [counts, subscribed] = await Promise.all([
    deps.labels.counts(
      projectId,
      labels.map((label) => label.title),
    ),
    deps.labels.subscribedAmong(
      labels.map((label) => label.id),
      caller.kind === 'user' ? caller.userId : null,
    ),
  ]);
  return labels.map((label) => projectLabelView(label, counts.get(label.title), subscribed.has(label.id)));
}

/** Subscribes the caller to a label the project sees, or unsubscribes them: the label (201), or 304 when nothing changed. */
function subscriptionRoute(path: string, subscribed: boolean) {
  return route({
    method: 'POST',
    path,
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ id: params.idOrPath(), label_id: z.string().min(1).max(255) }),
    handle: async ({ caller, input, deps }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const label = await deps.labels.subscribe(project.id, input.label_id, caller.userId, subscribed);
      if (!label) return reply({ status: 304 });
      const [view] = await viewsOf(deps, caller, project.id, [label]);
      return view;
    },
  });
}

const updateShape = { ...labelChangeShape, priority: priorityParam().optional() };
type UpdateInput = z.output<z.ZodObject<typeof updateShape>>;

function changesOf(input: UpdateInput) {
  requireSomeChange(input, updateShape);
  return { name: input.new_name, color: input.color, description: input.description, priority: input.priority };
}

export const labelsRoutes = [
  route.list({
    path: '/api/v4/projects/:id/labels',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({
      id: params.idOrPath(),
      with_counts: params.boolean().default(false),
      include_ancestor_groups: params.boolean().default(true),
      search: z.string().max(255).optional(),
    }),
    handle: async ({ caller, input, deps, window }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const { items, total } = await deps.labels.list(project.id, {
        search: input.search,
        includeAncestorGroups: input.include_ancestor_groups,
        ...window,
      });
      return { items: await viewsOf(deps, caller, project.id, items), total };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/labels/:label_id',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({
      id: params.idOrPath(),
      label_id: z.string().min(1).max(255),
      include_ancestor_groups: params.boolean().default(true),
    }),
    handle: async ({ caller, input, deps }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const label = input.include_ancestor_groups
        ? await deps.labels.getVisible(project.id, input.label_id)
        : listedProjectLabel(await deps.labels.get(project.id, input.label_id));
      const [view] = await viewsOf(deps, caller, project.id, [label]);
      return view;
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/labels',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      id: params.idOrPath(),
      ...newLabelShape,
      priority: priorityParam().optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      const created = await deps.labels.create(project.id, caller, input);
      const [view] = await viewsOf(deps, caller, project.id, [listedProjectLabel(created)]);
      return view;
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/labels/:label_id',
    access: 'user',
    scope: 'api',
    input: z.object({ id: params.idOrPath(), label_id: z.string().min(1).max(255), ...updateShape }),
    handle: async ({ caller, input, deps }) => {
      const changes = changesOf(input);
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      const updated = await deps.labels.update(project.id, caller, input.label_id, changes);
      const [view] = await viewsOf(deps, caller, project.id, [listedProjectLabel(updated)]);
      return view;
    },
  }),
  // GitLab's deprecated form, which names the label by `name` (or `label_id`) in the body.
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/labels',
    access: 'user',
    scope: 'api',
    input: z.object({
      id: params.idOrPath(),
      name: z.string().min(1).max(255).optional(),
      label_id: z.string().min(1).max(255).optional(),
      ...updateShape,
    }),
    handle: async ({ caller, input, deps }) => {
      const idOrTitle = input.label_id ?? input.name;
      if (idOrTitle === undefined) throw new InputError('label_id, name are missing, exactly one parameter must be provided');
      const changes = changesOf(input);
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      const updated = await deps.labels.update(project.id, caller, idOrTitle, changes);
      const [view] = await viewsOf(deps, caller, project.id, [listedProjectLabel(updated)]);
      return view;
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/labels/:label_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ id: params.idOrPath(), label_id: z.string().min(1).max(255) }),
    handle: async ({ caller, input, deps }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      await deps.labels.delete(project.id, caller, input.label_id);
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/labels',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({
      id: params.idOrPath(),
      name: z.string().min(1).max(255).optional(),
      label_id: z.string().min(1).max(255).optional(),
    }),
    handle: async ({ caller, input, deps }) => {
      const idOrTitle = input.label_id ?? input.name;
      if (idOrTitle === undefined) throw new InputError('label_id, name are missing, exactly one parameter must be provided');
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id, minimumLevel: ACCESS_LEVEL.REPORTER });
      await deps.labels.delete(project.id, caller, idOrTitle);
    },
  }),
  subscriptionRoute('/api/v4/projects/:id/labels/:label_id/subscribe', true),
  subscriptionRoute('/api/v4/projects/:id/labels/:label_id/unsubscribe', false),
  route({
    method: 'PUT',
    path: '/api/v4/projects/:id/labels/:label_id/promote',
    access: 'user',
    scope: 'api',
    input: z.object({ id: params.idOrPath(), label_id: z.string().min(1).max(255) }),
    handle: async ({ caller, input, deps }) => {
      const project = await planningProject({ access: deps.access, caller, idOrPath: input.id });
      const groupId = await projectGroup({ access: deps.access, caller, project });
      const promoted = await deps.labels.promote(project.id, caller, input.label_id, groupId);
      const subscribed = await deps.labels.subscribedAmong([promoted.id], caller.userId);
      return { ...labelBasicView({ ...promoted, description: promoted.description ?? null }), subscribed: subscribed.has(promoted.id) };
    },
  }),
];
