import { inUnitOfWork, type Orm } from '@platform/db';
import { unaryHandler, type GrpcServiceBinding } from '@platform/grpc';
import type { Logger } from '@platform/logger';
import { PackagesServiceService, type PackagesServiceServer } from '@platform/proto/packages/v1';
import type { ContainerRegistryService } from './container-registry-service.ts';

/** What other services ask about container registries: identity, before it moves a project's path. */
export function containerRegistryGrpc(options: { orm: Orm; registry: ContainerRegistryService; logger: Logger }): GrpcServiceBinding {
  const implementation: PackagesServiceServer = {
    listProjectsWithContainerTags: unaryHandler(options.logger, async (request) => ({
      projectIds: await inUnitOfWork(options.orm, () => options.registry.projectsWithTags(request.projectIds)),
    })),
  };
  return { definition: PackagesServiceService, implementation, scopes: { listProjectsWithContainerTags: 'internal' } };
}
