import { z } from 'zod';
import { InputError } from '@platform/errors';
import { params, reply, routesOf } from '@platform/http';
import { ACCESS_LEVEL, type IdentityAccess } from '@platform/identity-client';
import type { Caller } from '@platform/auth';
import { labelChangeShape, newLabelShape, requireSomeChange } from './label-params.ts';
import { labelBasicView } from './label-views.ts';
import type { GroupLabel } from './group-label.entity.ts';
import type { GroupLabelsService } from './labels-service.ts';

export interface GroupLabelsRouteDeps {
  access: IdentityAccess;
  groupLabels: GroupLabelsService;
}

const route = routesOf<GroupLabelsRouteDeps>('review');

/** GitLab's `GroupLabel`, `subscribed` for the caller. */
async function viewsOf(deps: GroupLabelsRouteDeps, caller: Caller, labels: GroupLabel[]) {
  const subscribed = await deps.groupLabels.subscribedAmong(
    labels.map((label) => label.id),
    caller.kind === 'user' ? caller.userId : null,
  );
  return labels.map((label) => ({
    ...labelBasicView({ ...label, description: label.description ?? null }),
    subscribed: subscribed.has(label.id),
  }));
}

async function viewOf(deps: GroupLabelsRouteDeps, caller: Caller, label: GroupLabel) {
  const [view] = await viewsOf(deps, caller, [label]);
  return view;
}

/** The label a deprecated body-named request means: exactly one of `label_id` and `name`. */
function namedInBody(input: { label_id?: number | undefined; name?: string | undefined }): string {
  if (input.label_id !== undefined && input.name !== undefined) throw new InputError('label_id, name are mutually exclusive');
  const idOrTitle = input.label_id ?? input.name;
  if (idOrTitle === undefined) throw new InputError('label_id, name are missing, exactly one parameter must be provided');
  return String(idOrTitle);
}

/** Subscribes the caller to one of the group's labels, or unsubscribes them: the label (201), or 304 when nothing changed. */
function subscriptionRoute(path: string, subscribed: boolean) {
  return route({
    method: 'POST',
    path,
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object(perLabel),
    handle: async ({ caller, input, deps }) => {
      const groupId = await groupOf(deps, caller, input.id);
      const label = await deps.groupLabels.subscribe(groupId, input.label_id, caller.userId, subscribed);
      if (!label) return reply({ status: 304 });
      return viewOf(deps, caller, label);
    },
  });
}

/** The group behind `:id` when the caller may see it (and has `minimumLevel` there): 404 when invisible, 403 with too little access. */
function groupOf(deps: GroupLabelsRouteDeps, caller: Caller, idOrPath: string | number, minimumLevel = 0): Promise<number> {
  return deps.access.require({ resource: 'group', idOrPath: String(idOrPath), caller, minimumLevel });
}

const perLabel = { id: params.idOrPath(), label_id: z.string().min(1).max(255) };

export const groupLabelsRoutes = [
  route.list({
    path: '/api/v4/groups/:id/labels',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), search: z.string().max(255).optional() }),
    handle: async ({ caller, input, deps, window }) => {
      const groupId = await groupOf(deps, caller, input.id);
      const { items, total } = await deps.groupLabels.list([groupId], { search: input.search, ...window });
      return { items: await viewsOf(deps, caller, items), total };
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/groups/:id/labels/:label_id',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object(perLabel),
    handle: async ({ caller, input, deps }) => {
      const groupId = await groupOf(deps, caller, input.id);
      return viewOf(deps, caller, await deps.groupLabels.get(groupId, input.label_id));
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/groups/:id/labels',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      id: params.idOrPath(),
      ...newLabelShape,
    }),
    handle: async ({ caller, input, deps }) => {
      const groupId = await groupOf(deps, caller, input.id, ACCESS_LEVEL.REPORTER);
      return viewOf(deps, caller, await deps.groupLabels.create(groupId, caller, input));
    },
  }),
  route({
    method: 'PUT',
    path: '/api/v4/groups/:id/labels/:label_id',
    access: 'user',
    scope: 'api',
    input: z.object({
      ...perLabel,
      ...labelChangeShape,
    }),
    handle: async ({ caller, input, deps }) => {
      requireSomeChange(input, labelChangeShape);
      const groupId = await groupOf(deps, caller, input.id, ACCESS_LEVEL.REPORTER);
      const updated = await deps.groupLabels.update(groupId, caller, input.label_id, {
        name: input.new_name,
        color: input.color,
        description: input.description,
      });
      return viewOf(deps, caller, updated);
    },
  }),
  // GitLab's deprecated form, which names the label by `name` (or `label_id`) in the body: python-gitlab updates group labels this way.
  route({
    method: 'PUT',
    path: '/api/v4/groups/:id/labels',
    access: 'user',
    scope: 'api',
    input: z.object({
      id: params.idOrPath(),
      label_id: params.integer().optional(),
      name: z.string().min(1).max(255).optional(),
      ...labelChangeShape,
    }),
    handle: async ({ caller, input, deps }) => {
      const idOrTitle = namedInBody(input);
      requireSomeChange(input, labelChangeShape);
      const groupId = await groupOf(deps, caller, input.id, ACCESS_LEVEL.REPORTER);
      const updated = await deps.groupLabels.update(groupId, caller, idOrTitle, {
        name: input.new_name,
        color: input.color,
        description: input.description,
      });
      return viewOf(deps, caller, updated);
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/groups/:id/labels',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ id: params.idOrPath(), label_id: params.integer().optional(), name: z.string().min(1).max(255).optional() }),
    handle: async ({ caller, input, deps }) => {
      const idOrTitle = namedInBody(input);
      const groupId = await groupOf(deps, caller, input.id, ACCESS_LEVEL.REPORTER);
      await deps.groupLabels.delete(groupId, caller, idOrTitle);
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/groups/:id/labels/:label_id',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object(perLabel),
    handle: async ({ caller, input, deps }) => {
      const groupId = await groupOf(deps, caller, input.id, ACCESS_LEVEL.REPORTER);
      await deps.groupLabels.delete(groupId, caller, input.label_id);
    },
  }),
  subscriptionRoute('/api/v4/groups/:id/labels/:label_id/subscribe', true),
  subscriptionRoute('/api/v4/groups/:id/labels/:label_id/unsubscribe', false),
];
