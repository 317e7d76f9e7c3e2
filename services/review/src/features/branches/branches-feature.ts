import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Feature } from '@platform/service';
import type { ProtectedBranchesService } from '../protected-branches/protected-branches-service.ts';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { RepositoryWrites } from '../repository-writes/repository-writes-feature.ts';
import { BranchesService } from './branches-service.ts';
import { branchesRoutes } from './branches-routes.ts';

/** A repository's branches: listed with their protection, created and deleted (one by one, or those merged) as pushes are. */
export function createBranchesFeature(deps: {
  access: IdentityAccess;
  repositories: RepositoriesService;
  protectedBranches: ProtectedBranchesService;
  writes: RepositoryWrites;
}): Feature {
  const branches = new BranchesService({ writes: deps.writes });
  return {
    routes: [
      createRouter(branchesRoutes, {
        access: deps.access,
        repositories: deps.repositories,
        protectedBranches: deps.protectedBranches,
        branches,
      }),
    ],
  };
}
