import type { EntityManager } from '@platform/db';
import { createRouter } from '@platform/http';
import type { IdentityAccess } from '@platform/identity-client';
import type { Logger } from '@platform/logger';
import type { Feature } from '@platform/service';
import { PackageFileStorage } from './package-file-storage.ts';
import { PgPackageStore } from './packages-store.ts';
import { PackagesService } from './packages-service.ts';
import { packagesRoutes } from './packages-routes.ts';
import { projectEventHandlers } from './project-events.ts';

/** What the registries (npm, Maven) share with the Packages API. */
export interface PackagesCore {
  /** Resolves to the current unit of work; the registries open their writes' transactions on it. */
  em: EntityManager;
  store: PgPackageStore;
  storage: PackageFileStorage;
  packages: PackagesService;
}

export function createPackagesCore(deps: { em: EntityManager; access: IdentityAccess; logger: Logger; dataDir: string }): PackagesCore {
  const store = new PgPackageStore(deps.em);
  const storage = new PackageFileStorage(deps.dataDir);
  return {
    em: deps.em,
    store,
    storage,
    packages: new PackagesService({ em: deps.em, store, storage, access: deps.access, logger: deps.logger }),
  };
}

/** The Packages API over every format's packages, following their projects' moves and deletions. */
export function createPackagesFeature(deps: { core: PackagesCore; access: IdentityAccess }): Feature {
  return {
    routes: [createRouter(packagesRoutes, { access: deps.access, packages: deps.core.packages })],
    consumes: projectEventHandlers(deps.core.packages),
  };
}
