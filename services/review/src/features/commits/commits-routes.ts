import { z } from 'zod';
import { NotFoundError } from '@platform/errors';
import { params, routesOf } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import { accessRepository } from '../repositories/project-repositories.ts';
import { commitDetailView } from './commit-views.ts';

export interface CommitsRouteDeps {
  access: IdentityAccess;
  repositories: RepositoriesService;
}

const route = routesOf<CommitsRouteDeps>('review');

export const commitsRoutes = [
  route({
    method: 'GET',
    path: '/api/v4/projects/:id/repository/commits/:sha',
    access: 'anonymous',
    scope: 'read_api',
    input: z.object({ id: params.idOrPath(), sha: z.string().min(1).max(1024) }),
    handle: async ({ caller, input, deps }) => {
      const { project, repository } = await accessRepository({ ...deps, caller, idOrPath: input.id, need: 'read' });
      const sha = await repository.git.resolveCommit(input.sha);
      if (!sha) throw new NotFoundError('Commit');
      const commit = await repository.git.commit(sha);
      return commitDetailView(commit, await repository.git.diffStats(commit), project);
    },
  }),
];
