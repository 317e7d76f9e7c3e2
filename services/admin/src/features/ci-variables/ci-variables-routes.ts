import { z } from 'zod';
import { actorOf } from '@platform/auth';
import type { Caller } from '@platform/auth';
import { routesOf } from '@platform/http';
import { ACCESS_LEVEL, type AccessResource, type IdentityAccess } from '@platform/identity-client';
import type { VariableOwner } from './ci-variable.entity.ts';
import type { CiVariablesService, VariableAttributes } from './ci-variables-service.ts';
import { scopedVariableView, variableView } from './ci-variables-views.ts';
import {
  createScopedVariableParams,
  createVariableParams,
  scopedVariableKeyParams,
  scopedVariableListParams,
  updateScopedVariableParams,
  updateVariableParams,
  variableKeyParams,
  type CreateVariableParams,
} from './ci-variables.schemas.ts';

export interface CiVariablesRouteDeps {
  variables: CiVariablesService;
  access: IdentityAccess;
}

const route = routesOf<CiVariablesRouteDeps>('admin');

const attributesOf = (
  input: Omit<CreateVariableParams, 'key' | 'value'> & { value?: string | undefined; environment_scope?: string | undefined },
): VariableAttributes => ({
  value: input.value,
  environmentScope: input.environment_scope,
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
    handle: async ({ input, deps }) => variableView(await deps.variables.get({ key: input.key })),
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
      variableView(await deps.variables.update({ target: { key: input.key }, attributes: attributesOf(input), actor: actorOf(caller) })),
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/admin/ci/variables/:key',
    access: 'administrator',
    scope: 'api',
    status: 204,
    input: variableKeyParams,
    handle: async ({ caller, input, deps }) => deps.variables.delete({ target: { key: input.key }, actor: actorOf(caller) }),
  }),
];

/** Maintainers of a project or group manage its variables (GitLab's `admin_cicd_variables`). */
async function ownerOf(options: { deps: CiVariablesRouteDeps; caller: Caller; resource: AccessResource; id: string | number }) {
  const { id, fullPath } = await options.deps.access.requireResource({
    resource: options.resource,
    idOrPath: String(options.id),
    caller: options.caller,
    minimumLevel: ACCESS_LEVEL.MAINTAINER,
  });
  return { type: options.resource, id, fullPath } satisfies VariableOwner;
}

/** GitLab's project-level and group-level CI/CD variables APIs, for maintainers. */
function scopedVariablesRoutes(resource: AccessResource) {
  const base = `/api/v4/${resource}s/:id/variables`;
  return [
    route.list({
      path: base,
      access: 'user',
      scope: 'read_api',
      input: scopedVariableListParams,
      handle: async ({ caller, input, deps, window }) => {
        const owner = await ownerOf({ deps, caller, resource, id: input.id });
        const page = await deps.variables.list(window, owner);
        return { ...page, items: page.items.map(scopedVariableView) };
      },
    }),

    route({
      method: 'GET',
      path: `${base}/:key`,
      access: 'user',
      scope: 'read_api',
      input: scopedVariableKeyParams,
      handle: async ({ caller, input, deps }) => {
        const owner = await ownerOf({ deps, caller, resource, id: input.id });
        return scopedVariableView(await deps.variables.get({ owner, key: input.key, environmentScope: input.filter?.environment_scope }));
      },
    }),

    route({
      method: 'POST',
      path: base,
      access: 'user',
      scope: 'api',
      status: 201,
      input: createScopedVariableParams,
      handle: async ({ caller, input, deps }) => {
        const owner = await ownerOf({ deps, caller, resource, id: input.id });
        const created = await deps.variables.create({ owner, key: input.key, attributes: attributesOf(input), actor: actorOf(caller) });
        return scopedVariableView(created);
      },
    }),

    route({
      method: 'PUT',
      path: `${base}/:key`,
      access: 'user',
      scope: 'api',
      input: updateScopedVariableParams,
      handle: async ({ caller, input, deps }) => {
        const owner = await ownerOf({ deps, caller, resource, id: input.id });
        const updated = await deps.variables.update({
          target: { owner, key: input.key, environmentScope: input.filter?.environment_scope },
          attributes: attributesOf(input),
          actor: actorOf(caller),
        });
        return scopedVariableView(updated);
      },
    }),

    route({
      method: 'DELETE',
      path: `${base}/:key`,
      access: 'user',
      scope: 'api',
      status: 204,
      input: scopedVariableKeyParams,
      handle: async ({ caller, input, deps }) => {
        const owner = await ownerOf({ deps, caller, resource, id: input.id });
        await deps.variables.delete({
          target: { owner, key: input.key, environmentScope: input.filter?.environment_scope },
          actor: actorOf(caller),
        });
      },
    }),
  ];
}

export const projectVariablesRoutes = scopedVariablesRoutes('project');
export const groupVariablesRoutes = scopedVariablesRoutes('group');
