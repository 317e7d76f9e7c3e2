/** Composition root of the review service: project repositories, git over HTTP, branches and commits. */
import { runService, type ServiceDefinition } from '@platform/service';
import { createRouter } from '@platform/http';
import { GrpcIdentityAccess, identityAccessFeature } from '@platform/identity-client';
import { readConfig, type ReviewConfig } from './config.ts';
import { migrations } from './migrations/index.ts';
import { Repository } from './features/repositories/repository.entity.ts';
import { PgRepositoryStore } from './features/repositories/repositories-store.ts';
import { RepositoriesService } from './features/repositories/repositories-service.ts';
import { RepositoryStorages } from './features/repositories/repository-storages.ts';
import { IdentityDefaultBranch } from './features/repositories/identity-default-branch.ts';
import { REVIEW_TOPIC } from './features/repositories/repositories.events.ts';
import { projectEventHandlers } from './features/repositories/project-events.ts';
import { smartHttpRoutes } from './features/smart-http/smart-http-router.ts';
import { BranchesService } from './features/branches/branches-service.ts';
import { branchesRoutes } from './features/branches/branches-routes.ts';
import { commitsRoutes } from './features/commits/commits-routes.ts';

export function reviewService(config: ReviewConfig): ServiceDefinition<ReviewConfig> {
  return {
    name: 'review',
    config,
    entities: [Repository],
    migrations,
    publishes: [REVIEW_TOPIC],
    features: ({ em, logger }) => {
      const identity = { address: config.IDENTITY_GRPC_ADDRESS, internalSecret: config.INTERNAL_SECRET };
      const access = new GrpcIdentityAccess(identity);
      const defaultBranch = new IdentityDefaultBranch(identity);
      const repositories = new RepositoriesService({
        store: new PgRepositoryStore(em),
        storages: new RepositoryStorages(config.REPOSITORY_STORAGES),
        logger,
        onDefaultBranch: defaultBranch.set,
      });
      const branches = new BranchesService({ repositories });
      return [
        {
          routes: [createRouter(branchesRoutes, { access, repositories, branches }), createRouter(commitsRoutes, { access, repositories })],
          streamingRoutes: [smartHttpRoutes({ access, repositories, logger })],
          consumes: projectEventHandlers(repositories),
          stop: () => defaultBranch.close(),
        },
        identityAccessFeature(access),
      ];
    },
  };
}

if (import.meta.main) await runService(reviewService(readConfig()));
