import { z } from 'zod';
import { actorOf, type AuthenticatedCaller, type Caller } from '@platform/auth';
import { pageParams, pageShape, params, routesOf } from '@platform/http';
import { ACCESS_LEVEL, requireProjectAccess, type IdentityAccess, type ProjectAccess } from '@platform/identity-client';
import { PROTECTED_ACCESS_LEVELS, type AccessEntry, type BranchProtection, type ProtectedAction } from './branch-protection.ts';
import type { ProtectedBranchesService } from './protected-branches-service.ts';
import { entityIdsOf, protectedBranchView, type EntryNames } from './protected-branch-views.ts';
import type { ProtectionChange } from './protected-branches.events.ts';

export interface ProtectedBranchesRouteDeps {
  access: IdentityAccess;
  protectedBranches: ProtectedBranchesService;
  /** The names of users and groups, for the entries that name them. */
  entryNames: (ids: { userIds: number[]; groupIds: number[] }, caller: Caller) => Promise<EntryNames>;
}

/** The protected branches as GitLab shows them, users' and groups' entries described by their names. */
async function views(deps: ProtectedBranchesRouteDeps, caller: Caller, protections: BranchProtection[]) {
  const names = await deps.entryNames(entityIdsOf(protections), caller);
  return protections.map((protection) => protectedBranchView(protection, names));
}

async function view(deps: ProtectedBranchesRouteDeps, caller: Caller, protection: BranchProtection) {
  const [shown] = await views(deps, caller, [protection]);
  return shown;
}

const route = routesOf<ProtectedBranchesRouteDeps>('review');

/** Protected branches are a maintainer's business, as in GitLab (`admin_project`). */
async function maintainedProject(deps: ProtectedBranchesRouteDeps, caller: Caller, idOrPath: string | number): Promise<ProjectAccess> {
  return requireProjectAccess({ access: deps.access, caller, idOrPath, minimumLevel: ACCESS_LEVEL.MAINTAINER });
}

function changeBy(caller: AuthenticatedCaller, project: ProjectAccess): ProtectionChange {
  return { project: { id: project.id, path: project.pathWithNamespace }, actor: actorOf(caller) };
}

const accessLevel = () =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z.literal([...PROTECTED_ACCESS_LEVELS]),
  );
const entityId = () => params.integer().pipe(z.number().int().positive());
/** `allowed_to_push[][access_level]=30`, `[][user_id]=5` or `[][group_id]=3`: one of them per entry. */
const allowedList = () =>
  z
    .array(
      z
        .object({ access_level: accessLevel().optional(), user_id: entityId().optional(), group_id: entityId().optional() })
        .refine(
          (entry) => [entry.access_level, entry.user_id, entry.group_id].filter((value) => value !== undefined).length === 1,
          'each entry needs one of access_level, user_id, group_id',
        ),
    )
    .max(10);
const levelsShape = {
  push_access_level: accessLevel().optional(),
  merge_access_level: accessLevel().optional(),
  unprotect_access_level: accessLevel().optional(),
  allowed_to_push: allowedList().optional(),
  allowed_to_merge: allowedList().optional(),
  allowed_to_unprotect: allowedList().optional(),
};
type LevelsInput = { [Key in keyof typeof levelsShape]?: z.output<(typeof levelsShape)[Key]> };

/**
 * The entries given for `action`: its single level and its list together, or undefined when
 * neither was. A user's or a group's entry carries GitLab's default level, maintainer.
 */
function levelsOf(input: LevelsInput, action: ProtectedAction): AccessEntry[] | undefined {
  const single = input[`${action}_access_level`];
  const list = input[`allowed_to_${action}`];
  if (single === undefined && list === undefined) return undefined;
  const roles = [
    ...new Set([
      ...(single === undefined ? [] : [single]),
      ...(list ?? []).flatMap((entry) => (entry.access_level === undefined ? [] : [entry.access_level])),
    ]),
  ];
  const users = [...new Set((list ?? []).flatMap((entry) => (entry.user_id === undefined ? [] : [entry.user_id])))];
  const groups = [...new Set((list ?? []).flatMap((entry) => (entry.group_id === undefined ? [] : [entry.group_id])))];
  return [
    ...roles.map((accessLevel) => ({ accessLevel })),
    ...users.map((userId) => ({ accessLevel: ACCESS_LEVEL.MAINTAINER, userId })),
    ...groups.map((groupId) => ({ accessLevel: ACCESS_LEVEL.MAINTAINER, groupId })),
  ];
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
      const items = await views(deps, caller, all.slice(window.offset, window.offset + window.perPage));
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
      return view(deps, caller, await deps.protectedBranches.get(project.id, input.name));
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
          push: levelsOf(input, 'push') ?? [{ accessLevel: ACCESS_LEVEL.MAINTAINER }],
          merge: levelsOf(input, 'merge') ?? [{ accessLevel: ACCESS_LEVEL.MAINTAINER }],
          unprotect: levelsOf(input, 'unprotect') ?? [{ accessLevel: ACCESS_LEVEL.MAINTAINER }],
        },
        allowForcePush: input.allow_force_push,
        codeOwnerApprovalRequired: input.code_owner_approval_required,
      });
      return view(deps, caller, protection);
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
      const accessLevels: Partial<Record<ProtectedAction, AccessEntry[]>> = {};
      for (const action of ['push', 'merge', 'unprotect'] as const) {
        const levels = levelsOf(input, action);
        if (levels !== undefined) accessLevels[action] = levels;
      }
      const updated = await deps.protectedBranches.update(changeBy(caller, project), input.name, {
        allowForcePush: input.allow_force_push,
        codeOwnerApprovalRequired: input.code_owner_approval_required,
        accessLevels,
      });
      return view(deps, caller, updated);
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
      const actor = await deps.protectedBranches.actorOf({
        projectId: project.id,
        userId: caller.userId,
        accessLevel: project.accessLevel,
        isAdmin: project.isAdmin,
      });
      await deps.protectedBranches.unprotect(changeBy(caller, project), input.name, actor);
    },
  }),
];
