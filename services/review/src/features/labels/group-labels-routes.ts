import { z } from 'zod';
import { params, routesOf } from '@platform/http';
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

/** GitLab's `GroupLabel`. */
function groupLabelView(label: GroupLabel) {
  return { ...labelBasicView({ ...label, description: label.description ?? null }), subscribed: false };
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
      return { items: items.map(groupLabelView), total };
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
      return groupLabelView(await deps.groupLabels.get(groupId, input.label_id));
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
      return groupLabelView(await deps.groupLabels.create(groupId, caller, input));
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
      return groupLabelView(updated);
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
];
