import { z } from 'zod';
import type { Caller } from '@platform/auth';
import { params, routesOf } from '@platform/http';
import type { IdentityAccess, ProjectAccess } from '@platform/identity-client';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { accessRepository } from '../repositories/project-repositories.ts';
import { gitRevision } from '../repositories/repository-params.ts';
import { protectionStatus, type Actor, type BranchProtection } from '../protected-branches/branch-protection.ts';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import { branchView } from './branch-views.ts';
import type { BranchDetails, BranchesService } from './branches-service.ts';

export interface BranchesRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
  branches: BranchesService;
  protectedBranches: ProtectedBranchesService;
}

const route = routesOf<BranchesRouteDeps>('review');

const view = (details: BranchDetails, project: ProjectAccess, protections: BranchProtection[], actor: Actor) =>
  branchView(details.branch, {
    project,
    isDefault: details.isDefault,
    merged: details.merged,
    protection: protectionStatus({ branch: details.branch.name, protections, actor }),
  });

/** The caller as protected branches judge them: a user's entries and groups count, an anonymous caller has only their role. */
async function actorOf(deps: BranchesRouteDeps, caller: Caller, project: ProjectAccess): Promise<Actor> {
  if (caller.kind !== 'user') return { accessLevel: project.accessLevel, isAdmin: project.isAdmin };
  return deps.protectedBranches.actorOf({
    projectId: project.id,
    userId: caller.userId,
    accessLevel: project.accessLevel,
    isAdmin: project.isAdmin,
  });
}

export const branchesRoutes = [
  route.list({
    path: '/api/v4/projects/:id/repository/branches',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({
      id: params.idOrPath(),
      search: z.string().max(255).optional(),
      sort: z.enum(['name_asc', 'updated_asc', 'updated_desc']).default('name_asc'),
    }),
    handle: async ({ caller, input, deps, window }) => {
      const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const { items, total } = await deps.branches.list(repository, { search: input.search, sort: input.sort, ...window });
      const protections = await deps.protectedBranches.list(project.id);
      const actor = await actorOf(deps, caller, project);
      return { total, items: items.map((details) => view(details, project, protections, actor)) };
    },
  }),

  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/branches/:branch',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), branch: z.string().min(1).max(1024) }),
    handle: async ({ caller, input, deps }) => {
      const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const details = await deps.branches.get(repository, input.branch);
      return view(details, project, await deps.protectedBranches.list(project.id), await actorOf(deps, caller, project));
    },
  }),

  route({
    method: 'POST',
    path: '/api/v4/projects/:id/repository/branches',
    access: 'user',
    scope: 'api',
    status: 201,
    input: z.object({ id: params.idOrPath(), branch: z.string().min(1).max(1024), ref: gitRevision() }),
    handle: async ({ caller, input, deps }) => {
      const accessed = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'push' });
      const created = await deps.branches.create({ accessed, branch: input.branch, ref: input.ref, caller });
      const { project } = accessed;
      return view(created, project, await deps.protectedBranches.list(project.id), await actorOf(deps, caller, project));
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/repository/branches/:branch',
    access: 'user',
    scope: 'api',
    status: 204,
    input: z.object({ id: params.idOrPath(), branch: z.string().min(1).max(1024) }),
    handle: async ({ caller, input, deps }) => {
      const accessed = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'push' });
      await deps.branches.delete({ accessed, branch: input.branch, caller });
    },
  }),

  route({
    method: 'DELETE',
    path: '/api/v4/projects/:id/repository/merged_branches',
    access: 'user',
    scope: 'api',
    status: 202,
    input: z.object({ id: params.idOrPath() }),
    handle: async ({ caller, input, deps }) => {
      const accessed = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'push' });
      await deps.branches.deleteMerged({ accessed, caller, protections: await deps.protectedBranches.list(accessed.project.id) });
      return { message: '202 Accepted' };
    },
  }),
];
