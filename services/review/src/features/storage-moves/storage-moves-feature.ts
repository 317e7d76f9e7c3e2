import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import { handleJob, type Feature } from '@platform/service';
import type { RepositoriesService } from '../repositories/repositories-service.ts';
import type { RepositoryStore } from '../repositories/repositories-store.ts';
import type { RepositoryStorages } from '../repositories/repository-storages.ts';
import { RepositoryStorageMove } from './repository-storage-move.entity.ts';
import { PgStorageMoveStore } from './storage-moves-store.ts';
import { StorageMovesService } from './storage-moves-service.ts';
import { StorageMoveWorker } from './storage-move-worker.ts';
import { storageMoveJob } from './storage-moves.jobs.ts';
import { storageMovesRoutes } from './storage-moves-routes.ts';
import { GrpcProjectDirectory } from './project-directory.ts';

export const storageMovesEntities = [RepositoryStorageMove];

/** Repository storage moves: the administrators' API, and the job that carries each move out. */
export function createStorageMovesFeature(deps: {
  em: EntityManager;
  logger: Logger;
  access: IdentityAccess;
  identity: { address: string; internalSecret: string };
  repositories: RepositoriesService;
  repositoryStore: RepositoryStore;
  storages: RepositoryStorages;
  settings: ApplicationSettingsSource;
}): Feature {
  const store = new PgStorageMoveStore(deps.em);
  const storageMoves = new StorageMovesService({
    em: deps.em,
    store,
    repositories: deps.repositories,
    storages: deps.storages,
    settings: deps.settings,
  });
  const worker = new StorageMoveWorker({
    em: deps.em,
    moves: store,
    repositories: deps.repositoryStore,
    storages: deps.storages,
    logger: deps.logger,
  });
  const projects = new GrpcProjectDirectory(deps.identity);
  return {
    routes: [createRouter(storageMovesRoutes, { access: deps.access, storageMoves, projects })],
    jobs: [handleJob(storageMoveJob, ({ moveId }) => worker.carryOut(moveId))],
    stop: () => projects.close(),
  };
}
