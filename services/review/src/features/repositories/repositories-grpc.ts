import { inUnitOfWork, type Orm } from '@platform/db';
import { InputError } from '@platform/errors';
import { unaryHandler, type GrpcServiceBinding } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import {
  ReviewServiceService,
  type CreateRepositoryResponse,
  type ListRepositoryStoragesResponse,
  type ReviewServiceServer,
} from '@platform/proto/review/v1';
import type { RepositoriesService } from './repositories-service.ts';
import type { RepositoryStorages } from './repository-storages.ts';

/**
 * What other services ask of repositories on their own behalf: admin the storages it lets
 * administrators weigh, identity a new project's repository (its answer shows the storage).
 */
export function repositoriesGrpc(options: {
  orm: Orm;
  repositories: RepositoriesService;
  storages: RepositoryStorages;
  logger: Logger;
}): GrpcServiceBinding {
  const implementation: Pick<ReviewServiceServer, 'listRepositoryStorages' | 'createRepository'> = {
    listRepositoryStorages: unaryHandler(
      options.logger,
      async (): Promise<ListRepositoryStoragesResponse> => ({ names: options.storages.names() }),
    ),
    createRepository: unaryHandler(options.logger, (request) =>
      inUnitOfWork(options.orm, async (): Promise<CreateRepositoryResponse> => {
        if (request.projectId <= 0) throw new InputError('project_id is invalid');
        const forkedFromProjectId = request.forkedFromProjectId > 0 ? request.forkedFromProjectId : null;
        return { storage: await options.repositories.ensureStorage(request.projectId, { forkedFromProjectId }) };
      }),
    ),
  };
  return {
    definition: ReviewServiceService,
    implementation,
    scopes: { listRepositoryStorages: 'internal', createRepository: 'internal' },
  };
}
