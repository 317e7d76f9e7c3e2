import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { BranchesService } from './branches-service.ts';
import { branchesRoutes } from './branches-routes.ts';

/** A repository's branches: listed with their protection, created and deleted. */
export function createBranchesFeature(deps: {
  access: IdentityAccess;
  repositories: RepositoriesService;
  protectedBranches: ProtectedBranchesService;
}): Feature {
  const branches = new BranchesService({ repositories: deps.repositories });
  return { routes: [createRouter(branchesRoutes, { ...deps, branches })] };
}
