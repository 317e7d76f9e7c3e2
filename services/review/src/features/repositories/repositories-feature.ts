import { actorOf } from '@platform/auth';
import type { ApplicationSettingsSource } from '@platform/admin-client';
import type { EntityManager, Orm } from '@platform/db';
import type { EventActor } from '@platform/events';
import type { IdentityAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import { IdentityDefaultBranch } from './identity-default-branch.ts';
import { projectEventHandlers } from './project-events.ts';
import { repositoriesGrpc } from './repositories-grpc.ts';
import { PgRepositoryStore, type RepositoryStore } from './repositories-store.ts';
import { RepositoriesService } from './repositories-service.ts';
import { Repository } from './repository.entity.ts';
import { RepositoryStorages } from './repository-storages.ts';

export const repositoriesEntities = [Repository];

/** Protected branches' part in a first push: the new default branch gets its protection (recorded as the pusher's change). */
export interface DefaultBranchProtection {
  protectDefaultBranch(change: { project: { id: number; path: string }; actor: EventActor | null }, branch: string): Promise<void>;
}

export interface RepositoriesFeature extends Feature {
  repositories: RepositoriesService;
  store: RepositoryStore;
  storages: RepositoryStorages;
}

/**
 * Projects' git repositories, created and removed with their projects on the configured storages.
 * The first branch pushed to an empty repository becomes its default branch, protected, and
 * identity is told.
 */
export function createRepositoriesFeature(deps: {
  em: EntityManager;
  /** What gRPC calls open their units of work on. */
  orm: Orm;
  logger: Logger;
  access: IdentityAccess;
  identity: { address: string; internalSecret: string };
  settings: ApplicationSettingsSource;
  /** Storage name -> directory; always has `default`. */
  storages: Record<string, string>;
  protectedBranches: DefaultBranchProtection;
}): RepositoriesFeature {
  const { access, protectedBranches } = deps;
  const store = new PgRepositoryStore(deps.em);
  const storages = new RepositoryStorages(deps.storages);
  const defaultBranch = new IdentityDefaultBranch(deps.identity);
  const repositories = new RepositoriesService({
    em: deps.em,
    store,
    storages,
    settings: deps.settings,
    logger: deps.logger,
    onDefaultBranch: async (chosen) => {
      // The pusher may see the project: its path names it in the protection's audit event.
      const path = await access.project({ idOrPath: String(chosen.projectId), caller: chosen.caller }).then(
        (project) => project.pathWithNamespace,
        () => '',
      );
      const change = { project: { id: chosen.projectId, path }, actor: actorOf(chosen.caller) };
      await protectedBranches.protectDefaultBranch(change, chosen.branch);
      await defaultBranch.set(chosen);
    },
  });
  return {
    repositories,
    store,
    storages,
    rpcs: [repositoriesGrpc({ orm: deps.orm, repositories, storages, logger: deps.logger })],
    consumes: projectEventHandlers(repositories, access),
    stop: () => defaultBranch.close(),
  };
}
