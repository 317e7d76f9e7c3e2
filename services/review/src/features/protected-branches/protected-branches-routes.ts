import { z } from 'zod';
import { actorOf, type AuthenticatedCaller, type Caller } from '@platform/auth';
import { ForbiddenError } from '@platform/errors';
import { pageParams, pageShape, params, routesOf } from '@platform/http';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import { MAINTAINER_ACCESS, PROTECTED_ACCESS_LEVELS, type ProtectedAction } from './branch-protection.ts';
import type { ProtectedBranchesService } from './protected-branches-service.ts';
import { protectedBranchView } from './protected-branch-views.ts';
import type { ProtectionChange } from './protected-branches.events.ts';

export interface ProtectedBranchesRouteDeps {
  access: IdentityAccess;
  protectedBranches: ProtectedBranchesService;
}

const route = routesOf<ProtectedBranchesRouteDeps>('review');

/** Protected branches are a maintainer's business, as in GitLab (`admin_project`). */
async function maintainedProject(deps: ProtectedBranchesRouteDeps, caller: Caller, idOrPath: string | number): Promise<ProjectAccess> {
  const project = await deps.access.project({ idOrPath: String(idOrPath), caller });
  if (!project.isAdmin && project.accessLevel < MAINTAINER_ACCESS) throw new ForbiddenError();
  return project;
}

function changeBy(caller: AuthenticatedCaller, project: ProjectAccess): ProtectionChange {
  return { project: { id: project.id, path: project.pathWithNamespace }, actor: actorOf(caller) };
}

const accessLevel = () =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z.literal([...PROTECTED_ACCESS_LEVELS]),
  );
/** `allowed_to_push[][access_level]=30`: the roles of a list; users, groups and deploy keys are not kept. */
const allowedList = () => z.array(z.object({ access_level: accessLevel() })).max(10);
const levelsShape = {
  push_access_level: accessLevel().optional(),
  merge_access_level: accessLevel().optional(),
  unprotect_access_level: accessLevel().optional(),
  allowed_to_push: allowedList().optional(),
  allowed_to_merge: allowedList().optional(),
  allowed_to_unprotect: allowedList().optional(),
};
type LevelsInput = { [Key in keyof typeof levelsShape]?: z.output<(typeof levelsShape)[Key]> };

/** The roles given for `action`: its single level and its list together, or undefined when neither was. */
function levelsOf(input: LevelsInput, action: ProtectedAction): number[] | undefined {
  const single = input[`${action}_access_level`];
  const list = input[`allowed_to_${action}`]?.map((entry) => entry.access_level);
  if (single === undefined && list === undefined) return undefined;
  return [...new Set([...(single === undefined ? [] : [single]), ...(list ?? [])])];
}

const nameParam = z.string().min(1).max(255);

export const protectedBranchesRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/protected_branches',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), search: z.string().max(255).optional(), ...pageShape }),
    handle: async ({ caller, input, deps, page }) => {
      const project = await maintainedProject(deps, caller, input.id);
      const window = pageParams(input);
      const search = input.search?.toLowerCase();
      const all = (await deps.protectedBranches.list(project.id)).filter(
        (protection) => !search || protection.name.toLowerCase().includes(search),
      );
      const items = all.slice(window.offset, window.offset + window.perPage).map(protectedBranchView);
      return page(window, { items, total: all.length });
    },
  }),
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/protected_branches/:name',
    access: 'user',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), name: nameParam }),
    handle: async ({ caller, input, deps }) => {
      const project = await maintainedProject(deps, caller, input.id);
      return protectedBranchView(await deps.protectedBranches.get(project.id, input.name));
    },
  }),
  route({
    method: 'POST',
    path: '/api/v4/projects/:id/protected_branches',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({
      id: params.idOrPath(),
      name: nameParam,
      allow_force_push: params.boolean().default(false),
      code_owner_approval_required: params.boolean().default(false),
      ...levelsShape,
    }),
    handle: async ({ caller, input, deps }) => {
      const project = await maintainedProject(deps, caller, input.id);
      const protection = await deps.protectedBranches.create(changeBy(caller, project), {
        name: input.name,
        accessLevels: {
          push: levelsOf(input, 'push') ?? [MAINTAINER_ACCESS],
          merge: levelsOf(input, 'merge') ?? [MAINTAINER_ACCESS],
          unprotect: levelsOf(input, 'unprotect') ?? [MAINTAINER_ACCESS],
        },
        allowForcePush: input.allow_force_push,
        codeOwnerApprovalRequired: input.code_owner_approval_required,
      });
      return protectedBranchView(protection);
    },
  }),
  route({
    method: 'PATCH',
    path: '/api/v4/projects/:id/protected_branches/:name',
    access: 'user',
    scope: 'api',
    input: z.object({
      id: params.idOrPath(),
      name: nameParam,
      allow_force_push: params.boolean().optional(),
      code_owner_approval_required: params.boolean().optional(),
      ...levelsShape,
    }),
    handle: async ({ caller, input, deps }) => {
      const project = await maintainedProject(deps, caller, input.id);
      const accessLevels: Partial<Record<ProtectedAction, number[]>> = {};
      for (const action of ['push', 'merge', 'unprotect'] as const) {
        const levels = levelsOf(input, action);
        if (levels !== undefined) accessLevels[action] = levels;
      }
      const updated = await deps.protectedBranches.update(changeBy(caller, project), input.name, {
        allowForcePush: input.allow_force_push,
        codeOwnerApprovalRequired: input.code_owner_approval_required,
        accessLevels,
      });
      return protectedBranchView(updated);
    },
  }),
  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/protected_branches/:name',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ id: params.idOrPath(), name: nameParam }),
    handle: async ({ caller, input, deps }) => {
      const project = await maintainedProject(deps, caller, input.id);
      await deps.protectedBranches.unprotect(changeBy(caller, project), input.name, {
        accessLevel: project.accessLevel,
        isAdmin: project.isAdmin,
      });
    },
  }),
];
