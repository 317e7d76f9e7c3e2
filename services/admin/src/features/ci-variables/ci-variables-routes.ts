import { z } from 'zod';
import { actorOf } from '@platform/auth';
import { routesOf } from '@platform/http';
import type { CiVariablesService, VariableAttributes } from './ci-variables-service.ts';
import { variableView } from './ci-variables-views.ts';
import { createVariableParams, updateVariableParams, variableKeyParams, type CreateVariableParams } from './ci-variables.schemas.ts';

export interface CiVariablesRouteDeps {
  variables: CiVariablesService;
}

const route = routesOf<CiVariablesRouteDeps>('admin');

const attributesOf = (input: Omit<CreateVariableParams, 'key'>): VariableAttributes => ({
  value: input.value,
  variableType: input.variable_type,
  protected: input.protected,
  masked: input.masked,
  raw: input.raw,
  description: input.description,
});

/** GitLab's Instance-level CI/CD variables API, for administrators. */
export const ciVariablesRoutes = [
  route.list({
    path: '/api/v4/admin/ci/variables',
    access: 'administrator',
    scope: 'read_api',
    input: z.object({}),
    handle: async ({ deps, window }) => {
      const page = await deps.variables.list(window);
      return { ...page, items: page.items.map(variableView) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/admin/ci/variables/:key',
    access: 'administrator',
    scope: 'read_api',
    input: variableKeyParams,
    handle: async ({ input, deps }) => variableView(await deps.variables.get(input.key)),
  }),

  route({
    method: 'POST',
    path: '/api/v4/admin/ci/variables',
    access: 'administrator',
    scope: 'api',
    status: 201,
    input: createVariableParams,
    handle: async ({ caller, input, deps }) =>
      variableView(await deps.variables.create({ key: input.key, attributes: attributesOf(input), actor: actorOf(caller) })),
  }),

  route({
    method: 'PUT',
    path: '/api/v4/admin/ci/variables/:key',
    access: 'administrator',
    scope: 'api',
    input: updateVariableParams,
    handle: async ({ caller, input, deps }) =>
      variableView(await deps.variables.update({ key: input.key, attributes: attributesOf(input), actor: actorOf(caller) })),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/admin/ci/variables/:key',
    access: 'administrator',
    scope: 'api',
    status: 204,
    input: variableKeyParams,
    handle: async ({ caller, input, deps }) => deps.variables.delete({ key: input.key, actor: actorOf(caller) }),
  }),
];
