import { createRouter } from '@platform/http';
import type { EntityManager, Orm } from '@platform/db';
import { onEvent } from '@platform/events';
import { identityEvents, type IdentityAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import { handleJob, type Feature } from '@platform/service';
import type { PackagesConfig } from '../../config.ts';
import { projectMoveHandlers } from '../../project-moves.ts';
import { containerRegistryGrpc } from './container-registry-grpc.ts';
import { containerRegistryRoutes } from './container-registry-routes.ts';
import { ContainerRegistryService } from './container-registry-service.ts';
import { PgContainerRegistryStore } from './container-registry-store.ts';
import { cleanupTagsJob, deleteRepositoryJob } from './container-registry.jobs.ts';
import { jwtAuthRoutes } from './jwt-auth-router.ts';
import { RegistryClient } from './registry-client.ts';
import { registryNotificationRoutes } from './registry-notifications-router.ts';
import { RegistryTokenIssuer } from './registry-token.ts';

export { containerRegistryEntities } from './container-registry.entity.ts';

/**
 * The container registry: tokens for the Distribution registry, its notifications, GitLab's API
 * over the repositories and tags, and the background deletions (a deleted project's repositories
 * included), and repositories that follow their project when it moves.
 */
export function createContainerRegistryFeature(deps: {
  orm: Orm;
  em: EntityManager;
  access: IdentityAccess;
  logger: Logger;
  config: PackagesConfig;
}): Feature {
  const { config } = deps;
  const tokens = new RegistryTokenIssuer({
    keyFile: config.REGISTRY_TOKEN_KEY_FILE,
    issuer: config.REGISTRY_TOKEN_ISSUER,
    service: config.REGISTRY_SERVICE,
    expirySeconds: config.REGISTRY_TOKEN_EXPIRY_SECONDS,
  });
  if (!tokens.configured)
    deps.logger.warn('REGISTRY_TOKEN_KEY_FILE is unset: registry tokens are signed with a key generated for this run');
  const store = new PgContainerRegistryStore(deps.em);
  const registry = new ContainerRegistryService({
    em: deps.em,
    store,
    registry: new RegistryClient({ url: config.REGISTRY_URL, tokens }),
    access: deps.access,
    logger: deps.logger,
  });
  return {
    routes: [createRouter(containerRegistryRoutes, { access: deps.access, registry, views: { publicHost: config.REGISTRY_PUBLIC_HOST } })],
    streamingRoutes: [
      jwtAuthRoutes({ orm: deps.orm, access: deps.access, tokens, registry, service: config.REGISTRY_SERVICE }),
      registryNotificationRoutes({ orm: deps.orm, registry, secret: config.REGISTRY_NOTIFICATION_SECRET, logger: deps.logger }),
    ],
    rpcs: [containerRegistryGrpc({ orm: deps.orm, registry, logger: deps.logger })],
    consumes: [
      onEvent(identityEvents.projectDeleted, async ({ project }, envelope) => {
        if (project) await registry.removeProject(project.id, envelope.actor);
      }),
      ...projectMoveHandlers(registry),
    ],
    jobs: [
      handleJob(cleanupTagsJob, (job) => registry.cleanupTags(job)),
      handleJob(deleteRepositoryJob, (job) => registry.deleteRepository(job)),
    ],
  };
}
